//! A binary glTF (`.glb`) of a box of the world: the greedy, ambient-occluded meshes
//! the game draws, with one atlas texture, written with `gltf-json`.
//!
//! **Conventions** (Blender imports them as they are): one unit is one block (a
//! metre), y is up, the box's `from` corner is at the origin (node names give the
//! world position). Two nodes: `terrain` (opaque, the atlas times the vertex
//! colours: biome tints and ambient occlusion, linear) and `water` (its own
//! material, blended). Textures are sampled nearest, as in the game. The box's
//! sides are closed: blocks outside it count as air, so the cut shows.

mod atlas;
mod mesh;

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;
use rayon::prelude::*;
use terravox_mesher::{MeshBuffers, mesh_chunk_tinted};
use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};

use crate::area::Volume;
use crate::error::ExportError;
use crate::progress::Progress;
use crate::source::Source;
use crate::target::{Target, write};
use atlas::Atlas;
use mesh::Arrays;

/// The most blocks a side a glTF export takes (a 1024 x 1024 box is about 0.5 GB of
/// vertices).
pub const MAX_SIDE: u32 = 1024;

/// What a glTF export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The file.
    pub path: PathBuf,
    /// Vertices of the terrain and of the water.
    pub vertices: [u64; 2],
    /// Triangles of the terrain and of the water.
    pub triangles: [u64; 2],
    /// The bounds of the terrain's positions (relative to the box's `from` corner).
    pub bounds: ([f32; 3], [f32; 3]),
    /// Bytes written.
    pub bytes: u64,
}

thread_local! {
    /// Each worker's meshing buffers, reused chunk after chunk.
    static BUFFERS: RefCell<MeshBuffers> = RefCell::new(MeshBuffers::default());
}

/// Writes the box `volume` of `source` to `out` as a `.glb` (refused if it exists
/// and is not empty, unless `force`); at most [`MAX_SIDE`] blocks a side.
pub fn export(
    source: &Source,
    volume: Volume,
    out: &Path,
    force: bool,
    progress: &dyn Progress,
) -> Result<Report, ExportError> {
    if (0..3).any(|i| volume.to[i] - volume.from[i] > MAX_SIDE as i32) {
        return Err(ExportError::Area(format!(
            "a glTF export takes at most {MAX_SIDE} blocks a side; {volume:?} is larger"
        )));
    }
    let target = Target::file(out, force)?;
    let range = |i: usize| volume.from[i].div_euclid(CHUNK)..=(volume.to[i] - 1).div_euclid(CHUNK);
    let chunks: Vec<ChunkPos> = range(1)
        .flat_map(|y| range(2).flat_map(move |z| range(0).map(move |x| ChunkPos::new(x, y, z))))
        .collect();
    progress.start(chunks.len() as u64, "chunks");
    let atlas = Atlas::new();
    let meshed: Vec<(Arrays, Arrays)> = chunks
        .par_iter()
        .map(|&pos| {
            let out = mesh(source, &volume, pos, &atlas);
            progress.advance(1);
            out
        })
        .collect();
    let (mut land, mut water) = (Arrays::default(), Arrays::default());
    for (l, w) in meshed {
        land.append(l);
        water.append(w);
    }
    let name = |what: &str| {
        let [x, y, z] = volume.from;
        format!("{what} (terravox blocks from {x},{y},{z})")
    };
    let glb = document(
        &[
            (name("terrain"), &land, false),
            (name("water"), &water, true),
        ],
        &atlas,
    )?;
    write(target.partial(), &glb)?;
    let bounds = land.bounds();
    Ok(Report {
        path: target.finish()?,
        vertices: [land.positions.len() as u64, water.positions.len() as u64],
        triangles: [
            land.indices.len() as u64 / 3,
            water.indices.len() as u64 / 3,
        ],
        bounds,
        bytes: glb.len() as u64,
    })
}

/// The meshes of chunk `pos`, cut to `volume`, positions relative to its `from`.
fn mesh(source: &Source, volume: &Volume, pos: ChunkPos, atlas: &Atlas) -> (Arrays, Arrays) {
    let (mut chunk, tints) = source.chunk_tinted(pos);
    let o = pos.origin();
    let o = [o.x, o.y, o.z];
    let inside = (0..3).all(|i| volume.from[i] < o[i] && o[i] + CHUNK < volume.to[i]);
    if matches!(chunk, Chunk::Uniform(Block::Air)) {
        return Default::default();
    }
    if !inside {
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                for x in -1..=CHUNK {
                    if !volume.contains([o[0] + x, o[1] + y, o[2] + z]) {
                        chunk.set(x, y, z, Block::Air);
                    }
                }
            }
        }
    }
    let origin = [0, 1, 2].map(|i| (o[i] - volume.from[i]) as f32);
    BUFFERS.with_borrow_mut(|buffers| {
        mesh_chunk_tinted(&chunk, tints.as_deref(), buffers);
        let (mut land, mut water) = (Arrays::default(), Arrays::default());
        land.add(&buffers.opaque, origin, atlas, false);
        water.add(&buffers.water, origin, atlas, true);
        (land, water)
    })
}

/// The `.glb` bytes: one node a surface, the atlas embedded.
fn document(surfaces: &[(String, &Arrays, bool)], atlas: &Atlas) -> Result<Vec<u8>, ExportError> {
    let mut b = Builder::default();
    let png = atlas.png().map_err(ExportError::encode("the atlas"))?;
    let image_view = b.view(&png, None);
    let image = b.root.push(json::Image {
        buffer_view: Some(image_view),
        mime_type: Some(json::image::MimeType("image/png".into())),
        uri: None,
        name: Some("terravox blocks".into()),
        extensions: None,
        extras: Default::default(),
    });
    let sampler = b.root.push(json::texture::Sampler {
        mag_filter: Some(Valid(json::texture::MagFilter::Nearest)),
        min_filter: Some(Valid(json::texture::MinFilter::Nearest)),
        wrap_s: Valid(json::texture::WrappingMode::ClampToEdge),
        wrap_t: Valid(json::texture::WrappingMode::ClampToEdge),
        ..Default::default()
    });
    let texture = b.root.push(json::Texture {
        name: None,
        sampler: Some(sampler),
        source: image,
        extensions: None,
        extras: Default::default(),
    });
    let mut nodes = Vec::new();
    for (name, arrays, water) in surfaces {
        if arrays.indices.is_empty() {
            continue;
        }
        let material = b.root.push(json::Material {
            name: Some(if *water { "water" } else { "terrain" }.into()),
            alpha_mode: Valid(if *water {
                json::material::AlphaMode::Blend
            } else {
                json::material::AlphaMode::Opaque
            }),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor([
                    1.0,
                    1.0,
                    1.0,
                    if *water { 0.7 } else { 1.0 },
                ]),
                base_color_texture: Some(json::texture::Info {
                    index: texture,
                    tex_coord: 0,
                    extensions: None,
                    extras: Default::default(),
                }),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(if *water { 0.1 } else { 1.0 }),
                ..Default::default()
            },
            ..Default::default()
        });
        let primitive = b.primitive(arrays, material);
        let mesh = b.root.push(json::Mesh {
            name: Some(name.clone()),
            primitives: vec![primitive],
            weights: None,
            extensions: None,
            extras: Default::default(),
        });
        nodes.push(b.root.push(json::Node {
            mesh: Some(mesh),
            name: Some(name.clone()),
            ..Default::default()
        }));
    }
    let scene = b.root.push(json::Scene {
        name: Some("terravox".into()),
        nodes,
        extensions: None,
        extras: Default::default(),
    });
    b.root.scene = Some(scene);
    b.root.asset.generator = Some(format!("terravox {}", env!("CARGO_PKG_VERSION")));
    b.finish()
}

/// Collects the binary chunk and the JSON that points into it.
#[derive(Default)]
struct Builder {
    root: json::Root,
    bin: Vec<u8>,
}

impl Builder {
    /// Pads the binary chunk to a multiple of 4 bytes.
    fn align(&mut self) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
    }

    /// Appends `bytes` (4-byte aligned) as a buffer view.
    fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        self.align();
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor of `count` elements over a new view of `bytes`.
    #[allow(clippy::too_many_arguments)]
    fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        kind: json::accessor::Type,
        normalized: bool,
        bounds: Option<([f32; 3], [f32; 3])>,
        target: json::buffer::Target,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, Some(target));
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            type_: Valid(kind),
            min: bounds.map(|(lo, _)| json::Value::from(lo.to_vec())),
            max: bounds.map(|(_, hi)| json::Value::from(hi.to_vec())),
            name: None,
            normalized,
            sparse: None,
            extensions: None,
            extras: Default::default(),
        })
    }

    /// A triangle primitive of `a` with `material`.
    fn primitive(
        &mut self,
        a: &Arrays,
        material: json::Index<json::Material>,
    ) -> json::mesh::Primitive {
        use json::accessor::{ComponentType as C, Type as T};
        use json::buffer::Target::{ArrayBuffer, ElementArrayBuffer};
        let n = a.positions.len();
        let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let positions = self.accessor(
            &floats(a.positions.as_flattened()),
            n,
            C::F32,
            T::Vec3,
            false,
            Some(a.bounds()),
            ArrayBuffer,
        );
        let normals = self.accessor(
            &floats(a.normals.as_flattened()),
            n,
            C::F32,
            T::Vec3,
            false,
            None,
            ArrayBuffer,
        );
        let uvs = self.accessor(
            &floats(a.uvs.as_flattened()),
            n,
            C::F32,
            T::Vec2,
            false,
            None,
            ArrayBuffer,
        );
        let colors = self.accessor(
            a.colors.as_flattened(),
            n,
            C::U8,
            T::Vec4,
            true,
            None,
            ArrayBuffer,
        );
        let indices: Vec<u8> = a.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let indices = self.accessor(
            &indices,
            a.indices.len(),
            C::U32,
            T::Scalar,
            false,
            None,
            ElementArrayBuffer,
        );
        json::mesh::Primitive {
            attributes: BTreeMap::from([
                (Valid(json::mesh::Semantic::Positions), positions),
                (Valid(json::mesh::Semantic::Normals), normals),
                (Valid(json::mesh::Semantic::TexCoords(0)), uvs),
                (Valid(json::mesh::Semantic::Colors(0)), colors),
            ]),
            indices: Some(indices),
            material: Some(material),
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
            extensions: None,
            extras: Default::default(),
        }
    }

    /// The `.glb`: the JSON and the binary chunk.
    fn finish(mut self) -> Result<Vec<u8>, ExportError> {
        self.align();
        if self.bin.len() > u32::MAX as usize - (1 << 20) {
            return Err(ExportError::Area(format!(
                "the meshes take {} bytes, more than a .glb holds (4 GiB); export a smaller box",
                self.bin.len()
            )));
        }
        self.root.push(json::Buffer {
            byte_length: USize64::from(self.bin.len()),
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
        let json = json::serialize::to_vec(&self.root)
            .map_err(|e| ExportError::encode("the glTF JSON")(e.to_string()))?;
        let glb = gltf::binary::Glb {
            header: gltf::binary::Header {
                magic: *b"glTF",
                version: 2,
                length: 0,
            },
            json: Cow::Owned(json),
            bin: Some(Cow::Owned(self.bin)),
        };
        glb.to_vec()
            .map_err(|e| ExportError::encode("the .glb")(e.to_string()))
    }
}
