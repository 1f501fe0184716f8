// The chunk material: packed vertices, textures from the block texture array, the
// biome tint where a texture's alpha (the tint mask) asks for it, per-vertex
// occlusion, the sky light of caves (ambient light fades into them), and for water a
// moving surface coloured by its depth, drifting the way a river flows, and falling
// water down the faces of waterfalls. Lighting, shadows and fog are Bevy's
// (StandardMaterial's PBR functions).
#import bevy_pbr::{
    mesh_functions,
    mesh_view_bindings::{globals, fog, lights, view},
    view_transformations::position_world_to_clip,
    forward_io::{VertexOutput, FragmentOutput},
    pbr_fragment::pbr_input_from_standard_material,
    pbr_functions::{apply_pbr_lighting, main_pass_post_lighting_processing},
}
#import terravox::packed_vertex::{decode, face_normal, face_uv, flow_direction, occlusion_shade}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var block_textures: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(101) var block_sampler: sampler;
// x: 1 for water, 0 for opaque blocks; y: the water texture's layer (water vertices
// carry their surface's drop where others carry their layer).
@group(#{MATERIAL_BIND_GROUP}) @binding(102) var<uniform> chunk_params: vec4<f32>;

// Units of a water surface's drop below its block's top, per block
// (terravox_voxel::water_states::DROP_UNITS).
const DROP_UNITS: f32 = 144.0;

struct ChunkVertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) packed: vec2<u32>,
}

struct ChunkVertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) world_position: vec4<f32>,
    @location(1) world_normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) tint: vec3<f32>,
    @location(4) shade: f32,
    @location(5) @interpolate(flat) layer: u32,
    @location(6) @interpolate(flat) face: u32,
    @location(7) @interpolate(flat) instance_index: u32,
    @location(8) @interpolate(flat) sky: u32,
    // Water: the way it flows (blended across a merged quad's corners).
    @location(9) flow: vec2<f32>,
}

// Blocks a second a river's surface drifts downstream, and falling water falls.
const FLOW_SPEED: f32 = 1.2;
const FALL_SPEED: f32 = 3.0;

// How much more of the ambient light a side face gets than a top or bottom face.
const WALL_AMBIENT: f32 = 3.0;

// The share of the sunlight on the ground a wall gets back from it: half the wall's
// view is ground, which sends back its albedo (sand and grass about 0.3) of the light
// it gets.
const GROUND_BOUNCE: f32 = 0.5 * 0.3;

// The light a wall under open sky (sky light `level`) gets from the sunlit (or
// moonlit) ground before it: the ground's share of the sun's light on level ground,
// before exposure. A wall turned from the sun is lit by it and the sky alone, as
// real walls are; deep in a cave, by neither.
fn ground_bounce(level: u32) -> vec3<f32> {
    if lights.n_directional_lights == 0u {
        return vec3<f32>(0.0);
    }
    let sun = lights.directional_lights[0];
    return sun.color.rgb * max(sun.direction_to_light.y, 0.0) * GROUND_BOUNCE * sky_open(level);
}

// How much of the ambient (sky) light reaches a face at sky light `level`: all of it
// under the open sky, a fifth less per level into a cave, and a dim quarter deep down
// (so a cave's shape shows beyond the lantern's reach).
fn sky_ambient(level: u32) -> f32 {
    return 0.25 + 0.75 * sky_open(level);
}

// How open to the sky a face at sky light `level` is: 1 under the open sky, a fifth
// less per level into a cave.
fn sky_open(level: u32) -> f32 {
    return pow(0.8, f32(15u - min(level, 15u)));
}

// The slopes (d/dx, d/dz) of small waves on the water surface at a world position;
// the fragment shader tilts the surface's normal by them (a few degrees).
fn wave_slope(p: vec2<f32>, t: f32) -> vec2<f32> {
    let a = 0.1;
    let p1 = p.x * 0.55 + p.y * 0.3 + t * 1.4;
    let p2 = -p.x * 0.25 + p.y * 0.7 + t * 1.1;
    return a * vec2<f32>(
        0.55 * cos(p1) - 0.25 * cos(p2),
        0.3 * cos(p1) + 0.7 * cos(p2),
    );
}

fn is_water() -> bool {
    return chunk_params.x > 0.5;
}

@vertex
fn vertex(v: ChunkVertex) -> ChunkVertexOutput {
    var out: ChunkVertexOutput;
    let d = decode(v.packed);
    let world_from_local = mesh_functions::get_world_from_local(v.instance_index);
    var world = mesh_functions::mesh_position_local_to_world(world_from_local, vec4<f32>(d.position, 1.0));
    var layer = d.layer;
    if is_water() {
        // The surface sits below the block's top by its drop: a ninth for a lake,
        // lower where water runs thinner, none under water; a side face's upper
        // corners with it. Corners shared by two quads have the same drop (merged
        // quads meet in T-junctions only where the surface is flat), so the waves
        // move the surface's normals, never its vertices.
        world.y -= f32(d.layer) / DROP_UNITS;
        layer = u32(chunk_params.y);
    }
    out.position = position_world_to_clip(world.xyz);
    out.world_position = world;
    // Chunk meshes are only ever translated, so local normals are world normals.
    out.world_normal = face_normal(d.face);
    out.uv = face_uv(d.face, d.position);
    out.tint = d.tint;
    out.shade = f32(d.ao);
    out.layer = layer;
    out.face = d.face;
    out.sky = d.sky;
    out.flow = flow_direction(d.flow);
    out.instance_index = v.instance_index;
    return out;
}

@fragment
fn fragment(in: ChunkVertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    // Water moves: a river's surface downstream, a waterfall's face down.
    let side = in.face != 2u && in.face != 3u;
    var uv = in.uv;
    if is_water() {
        if in.face == 2u {
            uv -= in.flow * (globals.time * FLOW_SPEED);
        } else if side {
            uv.y -= globals.time * FALL_SPEED;
        }
    }
    let tex = textureSample(block_textures, block_sampler, uv, in.layer);
    // Blocks per pixel here (taken before any branch on the face, as derivatives
    // need uniform control flow).
    let footprint = max(fwidth(in.world_position.x), fwidth(in.world_position.z));

    var vo: VertexOutput;
    vo.position = in.position;
    vo.world_position = in.world_position;
    vo.world_normal = in.world_normal;
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    vo.instance_index = in.instance_index;
#endif
    var pbr_input = pbr_input_from_standard_material(vo, is_front);
    pbr_input.diffuse_occlusion *= sky_ambient(in.sky);
    if side && !is_water() {
        // A wall sees the bright sky low all around, which the ambient light (one
        // level for every face) leaves out, and the sunlit ground before it (added
        // below, `ground_bounce`): walls turned from the sun were lit by the ambient
        // light alone, as dark as the shadows on the ground, and a terrace's one-block
        // risers stood out on sunlit sand as a row of dark teeth. Shadows on the
        // ground keep their depth.
        pbr_input.diffuse_occlusion *= WALL_AMBIENT;
    }

    // The alpha channel is the tint mask.
    var color = tex.rgb * mix(vec3<f32>(1.0), in.tint, tex.a);
    var alpha = 1.0;
    if is_water() {
        // Shallow water is light and clear, deep water dark and nearly opaque, both
        // in the biome's water colour (the tint).
        let depth = clamp(in.shade / 3.0, 0.0, 1.0);
        let shallow = mix(vec3<f32>(0.03, 0.2, 0.24), in.tint, 0.4);
        color = tex.rgb * mix(shallow, in.tint * 0.55, depth);
        alpha = mix(0.66, 0.93, depth);
        if in.face == 2u {
            // The waves are 8-10 blocks long: they fade out where a pixel spans a
            // good part of one (some hundred blocks away) instead of aliasing into
            // rings across the far sea.
            let calm = 1.0 - smoothstep(0.75, 2.5, footprint);
            let drift = in.flow * (globals.time * FLOW_SPEED);
            let slope = wave_slope(in.world_position.xz - drift, globals.time) * calm;
            let n = normalize(vec3<f32>(-slope.x, 1.0, -slope.y));
            pbr_input.N = n;
            pbr_input.world_normal = n;
        } else if side {
            // Falling water (a waterfall's face: water beside air): streaks of
            // foam running down lanes a quarter block wide, each at its own pace.
            let across = select(in.world_position.z, in.world_position.x, in.face >= 4u);
            let lane = floor(across * 4.0);
            let h = fract(sin(lane * 12.9898) * 43758.5453);
            let streak = fract(in.world_position.y * 0.35 + globals.time * (1.2 + h) + h * 7.0);
            let foam = smoothstep(0.5, 1.0, streak);
            color = mix(mix(color, vec3<f32>(0.45, 0.68, 0.8), 0.45), vec3<f32>(0.92, 0.96, 0.98), 0.75 * foam);
            alpha = max(alpha, 0.85);
        }
    } else {
        color *= occlusion_shade(in.shade);
    }
    pbr_input.material.base_color = vec4<f32>(color, alpha) * pbr_input.material.base_color;

    var out: FragmentOutput;
    out.color = apply_pbr_lighting(pbr_input);
    if side && !is_water() {
        // A Lambertian wall's share (1/pi) of the light the ground sends it.
        let diffuse = pbr_input.material.base_color.rgb * (1.0 - pbr_input.material.metallic);
        out.color = vec4<f32>(out.color.rgb + diffuse * ground_bounce(in.sky) * (view.exposure / 3.14159265), out.color.a);
    }
    if is_water() && in.face == 2u && is_front {
        // The surface mirrors the sky towards the horizon (Schlick's Fresnel), in the
        // sky's colour at this hour, which the fog carries.
        let ndv = max(dot(pbr_input.N, pbr_input.V), 0.0);
        let f = pow(1.0 - ndv, 5.0) * 0.85;
        out.color = vec4<f32>(mix(out.color.rgb, fog.base_color.rgb, f), mix(out.color.a, 1.0, f));
    } else if is_water() && in.face == 2u {
        // From below, the surface is the bright ceiling of the water, lit by the sky
        // above it: the water's fog colour (dimmed at night with it) made light,
        // rippling with the waves and the water's texture, fading into the fog with
        // distance like everything under water.
        let ripple = wave_slope(in.world_position.xz - in.flow * (globals.time * FLOW_SPEED), globals.time);
        let shade = (0.55 + 0.6 * dot(tex.rgb, vec3<f32>(0.33))) * (1.0 + 2.5 * (ripple.x - ripple.y));
        let lit = min((fog.base_color.rgb * 3.2 + vec3<f32>(0.08)) * shade, vec3<f32>(1.0));
        out.color = vec4<f32>(mix(out.color.rgb, lit, 0.8), 0.9);
    }
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
