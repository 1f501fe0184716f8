// The chunk material's prepass and shadow vertex shader: packed positions only.
#import bevy_pbr::{
    mesh_functions,
    prepass_io::VertexOutput,
    view_transformations::position_world_to_clip,
}
#import terravox::packed_vertex::{decode, face_normal}

struct ChunkVertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) packed: vec2<u32>,
}

@vertex
fn vertex(v: ChunkVertex) -> VertexOutput {
    var out: VertexOutput;
    let d = decode(v.packed);
    let world_from_local = mesh_functions::get_world_from_local(v.instance_index);
    out.world_position = mesh_functions::mesh_position_local_to_world(world_from_local, vec4<f32>(d.position, 1.0));
    out.position = position_world_to_clip(out.world_position.xyz);
#ifdef UNCLIPPED_DEPTH_ORTHO_EMULATION
    out.unclipped_depth = out.position.z;
    out.position.z = min(out.position.z, 1.0);
#endif
#ifdef NORMAL_PREPASS_OR_DEFERRED_PREPASS
    out.world_normal = face_normal(d.face);
#endif
#ifdef MOTION_VECTOR_PREPASS
    let previous = mesh_functions::get_previous_world_from_local(v.instance_index);
    out.previous_world_position = mesh_functions::mesh_position_local_to_world(previous, vec4<f32>(d.position, 1.0));
#endif
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    out.instance_index = v.instance_index;
#endif
    return out;
}
