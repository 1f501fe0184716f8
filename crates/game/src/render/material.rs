//! The chunk material: an [`ExtendedMaterial`] over [`StandardMaterial`] (so Bevy's
//! lights, shadows and fog keep working) whose shaders decode the mesher's packed
//! 8-byte vertices and draw each face from the block texture array, multiplied by the
//! biome tint where the texture's tint mask asks for it. Water uses the same material
//! with the water flag: a translucent, gently moving surface coloured by depth.
//!
//! The texture array is the committed `assets/textures/blocks.png` (drawn by
//! `terravox textures`), embedded in the binary, with a mipmap chain computed here
//! so distant faces do not shimmer.

use bevy::asset::RenderAssetUsages;
use bevy::camera::primitives::Aabb;
use bevy::color::Srgba;
use bevy::image::{ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::mesh::{Indices, MeshVertexAttribute, MeshVertexBufferLayoutRef, PrimitiveTopology};
use bevy::pbr::{
    ExtendedMaterial, MaterialExtension, MaterialExtensionKey, MaterialExtensionPipeline,
    MaterialPlugin,
};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, RenderPipelineDescriptor, SpecializedMeshPipelineError,
    TextureDimension, TextureFormat, TextureViewDescriptor, TextureViewDimension, VertexFormat,
};
use bevy::shader::ShaderRef;
use terravox_mesher::Surface;
use terravox_voxel::textures::{SIZE, Texture};

/// The committed block textures: a vertical strip of 16x16 RGBA tiles.
const BLOCKS_PNG: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/textures/blocks.png"
));

const SHADER: &str = "embedded://terravox_game/render/shaders/chunk.wgsl";
const PREPASS_SHADER: &str = "embedded://terravox_game/render/shaders/chunk_prepass.wgsl";

/// The packed vertex attribute: two `u32`s (see `terravox_mesher::vertex`).
const ATTRIBUTE_PACKED: MeshVertexAttribute =
    MeshVertexAttribute::new("TerravoxPacked", 0x7e44_a0c1, VertexFormat::Uint32x2);

/// The material of chunk meshes.
pub(crate) type ChunkMaterial = ExtendedMaterial<StandardMaterial, ChunkExtension>;

/// The chunk material's own bindings: the texture array and whether it draws water.
#[derive(Asset, AsBindGroup, Reflect, Debug, Clone)]
pub(crate) struct ChunkExtension {
    #[texture(100, dimension = "2d_array")]
    #[sampler(101)]
    textures: Handle<Image>,
    /// `x`: 1 for water, 0 for opaque blocks; `y`: the water texture's layer (a
    /// water vertex carries its surface's drop in place of a layer).
    #[uniform(102)]
    params: Vec4,
}

impl MaterialExtension for ChunkExtension {
    fn vertex_shader() -> ShaderRef {
        SHADER.into()
    }

    fn fragment_shader() -> ShaderRef {
        SHADER.into()
    }

    fn prepass_vertex_shader() -> ShaderRef {
        PREPASS_SHADER.into()
    }

    fn specialize(
        _pipeline: &MaterialExtensionPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        _key: MaterialExtensionKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        // The main, prepass and shadow pipelines all read the packed attribute only.
        descriptor.vertex.buffers = vec![
            layout
                .0
                .get_layout(&[ATTRIBUTE_PACKED.at_shader_location(0)])?,
        ];
        Ok(())
    }
}

/// The two chunk materials every chunk mesh uses.
#[derive(Resource, Clone)]
pub(crate) struct ChunkMaterials {
    /// Opaque blocks.
    pub(crate) opaque: Handle<ChunkMaterial>,
    /// Translucent water.
    pub(crate) water: Handle<ChunkMaterial>,
}

/// The chunk material plugin (drawn only, so not in headless games).
pub(crate) fn plugin(app: &mut App) {
    bevy::shader::load_shader_library!(app, "shaders/packed_vertex.wgsl");
    bevy::asset::embedded_asset!(app, "shaders/chunk.wgsl");
    bevy::asset::embedded_asset!(app, "shaders/chunk_prepass.wgsl");
    app.add_plugins(MaterialPlugin::<ChunkMaterial>::default())
        .add_systems(Startup, setup_materials);
}

fn setup_materials(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<ChunkMaterial>>,
) {
    let textures = match decode_strip(BLOCKS_PNG) {
        Ok(layers) => images.add(texture_array(&layers)),
        // The PNG is compiled in and checked by a test; a broken one would be a build
        // mistake, so draw untextured rather than stop the game.
        Err(e) => {
            error!("the embedded block textures are unreadable ({e}); drawing blocks flat");
            Handle::default()
        }
    };
    let material = |water: bool| ChunkMaterial {
        base: StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: if water { 0.3 } else { 0.95 },
            // Little glare (water's sky reflection is the shader's).
            reflectance: 0.1,
            alpha_mode: if water {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            },
            // The water's surface is seen from below too, when diving.
            double_sided: water,
            cull_mode: (!water).then_some(bevy::render::render_resource::Face::Back),
            ..default()
        },
        extension: ChunkExtension {
            textures: textures.clone(),
            params: Vec4::new(water as u8 as f32, Texture::Water.layer() as f32, 0.0, 0.0),
        },
    };
    commands.insert_resource(ChunkMaterials {
        opaque: materials.add(material(false)),
        water: materials.add(material(true)),
    });
}

/// One decoded texture layer: `SIZE * SIZE` RGBA pixels.
type Layer = Vec<u8>;

/// Decodes the texture strip into layers, checking it has one tile per texture.
fn decode_strip(bytes: &[u8]) -> Result<Vec<Layer>, String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("too large")?];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let expected = (SIZE as u32, (SIZE * Texture::ALL.len()) as u32);
    if (info.width, info.height) != expected || info.color_type != png::ColorType::Rgba {
        return Err(format!(
            "{}x{} {:?}, expected {}x{} RGBA",
            info.width, info.height, info.color_type, expected.0, expected.1
        ));
    }
    Ok(buf[..info.buffer_size()]
        .chunks(SIZE * SIZE * 4)
        .map(<[u8]>::to_vec)
        .collect())
}

/// sRGB byte to linear.
fn to_linear(v: u8) -> f32 {
    Srgba::gamma_function(v as f32 / 255.0)
}

/// Linear to sRGB byte.
fn to_srgb(c: f32) -> u8 {
    (Srgba::gamma_function_inverse(c) * 255.0)
        .round()
        .clamp(0.0, 255.0) as u8
}

/// Every mip level of one square RGBA layer, largest first: each level averages 2x2
/// texels of the one above in linear light (alpha, the tint mask, linearly).
fn mip_chain(layer: &[u8], size: usize) -> Vec<Vec<u8>> {
    let mut levels = vec![layer.to_vec()];
    let mut n = size;
    while n > 1 {
        let above = levels.last().expect("one level at least");
        let m = n / 2;
        let mut next = Vec::with_capacity(m * m * 4);
        for y in 0..m {
            for x in 0..m {
                let texel =
                    |dx: usize, dy: usize, c: usize| above[((2 * y + dy) * n + 2 * x + dx) * 4 + c];
                for c in 0..4 {
                    let quad = [(0, 0), (1, 0), (0, 1), (1, 1)];
                    next.push(if c == 3 {
                        let sum: u32 = quad.iter().map(|&(dx, dy)| texel(dx, dy, c) as u32).sum();
                        ((sum + 2) / 4) as u8
                    } else {
                        let sum: f32 = quad
                            .iter()
                            .map(|&(dx, dy)| to_linear(texel(dx, dy, c)))
                            .sum();
                        to_srgb(sum / 4.0)
                    });
                }
            }
        }
        levels.push(next);
        n = m;
    }
    levels
}

/// The texture array: one layer per texture, with mipmaps; sampled with nearest
/// magnification (crisp pixels up close), repeating (a merged quad tiles its texture
/// per block), and blended mip levels in the distance.
fn texture_array(layers: &[Layer]) -> Image {
    let mips = mip_chain(&layers[0], SIZE).len();
    let mut image = Image::new_uninit(
        Extent3d {
            width: SIZE as u32,
            height: SIZE as u32,
            depth_or_array_layers: layers.len() as u32,
        },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    // Layer-major: every mip of layer 0, then of layer 1, ...
    image.data = Some(
        layers
            .iter()
            .flat_map(|l| mip_chain(l, SIZE).into_iter().flatten())
            .collect(),
    );
    image.texture_descriptor.mip_level_count = mips as u32;
    image.texture_view_descriptor = Some(TextureViewDescriptor {
        dimension: Some(TextureViewDimension::D2Array),
        ..default()
    });
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        mag_filter: ImageFilterMode::Nearest,
        min_filter: ImageFilterMode::Linear,
        mipmap_filter: ImageFilterMode::Linear,
        ..default()
    });
    image
}

/// A Bevy mesh of a mesher surface: the packed vertices as they are, `u16` indices
/// where the surface has at most 65,536 vertices. Its bounds come from the quads (a
/// mesh without positions has none of its own).
pub(crate) fn surface_to_mesh(s: &Surface) -> (Mesh, Aabb) {
    let indices = match s.indices_u16() {
        Some(small) => Indices::U16(small),
        None => Indices::U32(s.indices.clone()),
    };
    let mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(ATTRIBUTE_PACKED, s.vertices.clone())
    .with_inserted_indices(indices);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for q in &s.quads {
        lo = lo.min(Vec3::from(q.min.map(f32::from)));
        hi = hi.max(Vec3::from(q.max.map(f32::from)) + 1.0);
    }
    (mesh, Aabb::from_min_max(lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_textures_are_the_generators_output() {
        let layers = decode_strip(BLOCKS_PNG).expect("a readable strip");
        let generated = terravox_voxel::textures::generate();
        assert_eq!(layers.len(), generated.len());
        for ((t, png), drawn) in Texture::ALL.iter().zip(&layers).zip(&generated) {
            let drawn: Vec<u8> = drawn.iter().flatten().copied().collect();
            assert!(
                *png == drawn,
                "{t:?} differs: run `cargo run --release -- textures`"
            );
        }
    }

    #[test]
    fn mip_chains_halve_down_to_one_texel_and_keep_the_mean() {
        let layer: Vec<u8> = (0..SIZE * SIZE)
            .flat_map(|i| {
                let v = if (i % SIZE + i / SIZE).is_multiple_of(2) {
                    255
                } else {
                    0
                };
                [v, v, v, 255]
            })
            .collect();
        let chain = mip_chain(&layer, SIZE);
        let sizes: Vec<usize> = chain.iter().map(Vec::len).collect();
        assert_eq!(sizes, [16 * 16 * 4, 8 * 8 * 4, 4 * 4 * 4, 2 * 2 * 4, 4]);
        // A black and white checkerboard averages to half the light (sRGB ~188).
        assert_eq!(chain[4], [188, 188, 188, 255]);
        let array = texture_array(&vec![layer; Texture::ALL.len()]);
        assert_eq!(
            array.data.as_ref().map(Vec::len),
            Some(sizes.iter().sum::<usize>() * Texture::ALL.len())
        );
    }

    #[test]
    fn broken_texture_files_are_refused() {
        assert!(decode_strip(b"not a png").is_err());
        // A valid PNG of the wrong size.
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, 16, 16);
            enc.set_color(png::ColorType::Rgba);
            let mut w = enc.write_header().expect("header");
            w.write_image_data(&[0; 16 * 16 * 4]).expect("data");
        }
        let err = decode_strip(&bytes).unwrap_err();
        assert!(err.contains("expected 16x"), "{err}");
    }
}
