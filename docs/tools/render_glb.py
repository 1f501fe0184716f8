"""Renders a .glb the way another program reads it, for the README's picture of a
glTF export: trimesh (a mesh library nobody here wrote) loads the file, matplotlib
draws its triangles in the colours its material gives them (the atlas times
the vertex colours), lit from the sun's side.

Usage: python render_glb.py BOX.glb OUT.png
Needs: pip install trimesh matplotlib numpy
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import trimesh
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

scene = trimesh.load(sys.argv[1], force="scene")
fig = plt.figure(figsize=(10, 7), dpi=110)
ax = fig.add_subplot(projection="3d")
sun = np.array([0.4, 0.8, 0.3])
sun /= np.linalg.norm(sun)
lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
for name, mesh in scene.geometry.items():
    tris = mesh.vertices[mesh.faces]
    # Each triangle's colour: the atlas at its centre times its vertex colours
    # (tints and occlusion, linear light), as the glTF material says.
    atlas = np.asarray(mesh.visual.material.baseColorTexture.convert("RGB")) / 255.0
    uv = mesh.visual.uv[mesh.faces].mean(axis=1)
    h, w = atlas.shape[:2]
    # trimesh flips v to OpenGL's convention (origin at the bottom).
    texel = atlas[np.clip(((1 - uv[:, 1]) * h).astype(int), 0, h - 1), np.clip((uv[:, 0] * w).astype(int), 0, w - 1)]
    vertex = mesh.visual.vertex_attributes["color"][mesh.faces].mean(axis=1)[:, :3] / 255.0
    linear = texel**2.2 * vertex
    shade = 0.6 + 0.4 * np.clip(mesh.face_normals @ sun, 0, 1)
    rgb = np.clip((linear * shade[:, None]) ** (1 / 2.2), 0, 1)
    alpha = 0.6 if name.startswith("water") else 1.0
    # glTF is y up; matplotlib's 3D axes are z up.
    poly = Poly3DCollection(tris[:, :, [0, 2, 1]], facecolors=np.c_[rgb, np.full(len(rgb), alpha)], linewidths=0)
    ax.add_collection3d(poly)
    lo, hi = np.minimum(lo, mesh.bounds[0]), np.maximum(hi, mesh.bounds[1])
ax.set_xlim(lo[0], hi[0])
ax.set_ylim(lo[2], hi[2])
ax.set_zlim(lo[1], hi[1])
ax.set_box_aspect((hi[0] - lo[0], hi[2] - lo[2], hi[1] - lo[1]))
ax.view_init(elev=35, azim=-60)
ax.set_axis_off()
plt.tight_layout()
plt.savefig(sys.argv[2])
