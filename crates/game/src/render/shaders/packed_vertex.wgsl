// Decoding of terravox's packed chunk vertices. The layout, the face UVs and the
// occlusion shade are defined in terravox_mesher::vertex; crates/game/tests/shaders.rs
// fails where this file disagrees with it.
// word 0: x 0..6 | y 6..12 | z 12..18 | face 18..21 | ao 21..23 | layer 23..31
// word 1: tint r 0..8 | g 8..16 | b 16..24 (sRGB) | sky light 24..28 | flow 28..32
#define_import_path terravox::packed_vertex

struct Decoded {
    position: vec3<f32>,
    // Index into Face::ALL: +x, -x, +y, -y, +z, -z.
    face: u32,
    // Occlusion level 0 (darkest) ..= 3; for water, the depth level.
    ao: u32,
    layer: u32,
    // Linear tint.
    tint: vec3<f32>,
    // Sky light level 0 (deep in a cave) ..= 15 (open sky).
    sky: u32,
    // How water flows: 0 still, else its direction (see flow_direction).
    flow: u32,
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(high, low, c <= vec3<f32>(0.04045));
}

fn decode(p: vec2<u32>) -> Decoded {
    var d: Decoded;
    let w = p.x;
    d.position = vec3<f32>(f32(w & 63u), f32((w >> 6u) & 63u), f32((w >> 12u) & 63u));
    d.face = (w >> 18u) & 7u;
    d.ao = (w >> 21u) & 3u;
    d.layer = w >> 23u;
    let t = p.y;
    d.sky = (t >> 24u) & 15u;
    d.flow = t >> 28u;
    d.tint = srgb_to_linear(
        vec3<f32>(f32(t & 255u), f32((t >> 8u) & 255u), f32((t >> 16u) & 255u)) / 255.0
    );
    return d;
}

// The direction (x, z) water of flow `code` runs in: none for 0 (still), else
// `code - 1` fifteenths of a turn from +x towards +z (terravox_voxel::Flow).
fn flow_direction(code: u32) -> vec2<f32> {
    if code == 0u {
        return vec2<f32>(0.0);
    }
    let a = f32(code - 1u) / 15.0 * 6.2831853;
    return vec2<f32>(cos(a), sin(a));
}

fn face_normal(face: u32) -> vec3<f32> {
    switch face {
        case 0u: { return vec3<f32>(1.0, 0.0, 0.0); }
        case 1u: { return vec3<f32>(-1.0, 0.0, 0.0); }
        case 2u: { return vec3<f32>(0.0, 1.0, 0.0); }
        case 3u: { return vec3<f32>(0.0, -1.0, 0.0); }
        case 4u: { return vec3<f32>(0.0, 0.0, 1.0); }
        default: { return vec3<f32>(0.0, 0.0, -1.0); }
    }
}

// Texture coordinates in block units (the sampler repeats), so a merged quad shows
// its texture once per block; on side faces the texture's top row is at the top.
fn face_uv(face: u32, p: vec3<f32>) -> vec2<f32> {
    switch face {
        case 0u: { return vec2<f32>(-p.z, -p.y); }
        case 1u: { return vec2<f32>(p.z, -p.y); }
        case 2u: { return vec2<f32>(p.x, p.z); }
        case 3u: { return vec2<f32>(p.x, -p.z); }
        case 4u: { return vec2<f32>(p.x, -p.y); }
        default: { return vec2<f32>(-p.x, -p.y); }
    }
}

// Brightness of a solid face at occlusion level `ao` (0 darkest ..= 3 open).
fn occlusion_shade(ao: f32) -> f32 {
    return 0.42 + 0.193 * ao;
}
