"""Draws a top-down map of a Minecraft Java world as amulet-core (the Amulet
editor's library, written by nobody here) reads it, for the README's picture of a
Minecraft export: the highest block of each column in a colour for its name,
shaded by height.

Usage: python render_minecraft.py WORLD X0,Z0 X1,Z1 OUT.png
Needs: pip install amulet-core matplotlib numpy
"""

import sys

import amulet
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

COLORS = {
    "grass_block": (95, 150, 60), "moss_block": (60, 110, 45), "dirt": (120, 85, 55),
    "podzol": (105, 75, 40), "stone": (125, 125, 128), "deepslate": (74, 80, 92),
    "sand": (220, 205, 150), "sandstone": (205, 185, 130), "gravel": (140, 130, 120),
    "snow_block": (240, 245, 250), "ice": (165, 200, 245), "clay": (150, 155, 170),
    "water": (40, 90, 170), "cactus": (60, 130, 50),
}

world, (x0, z0), (x1, z1), out = sys.argv[1], *(map(int, a.split(",")) for a in sys.argv[2:4]), sys.argv[4]
level = amulet.load_level(world)
dim = "minecraft:overworld"
top = np.full((z1 - z0, x1 - x0), -64)
rgb = np.zeros((z1 - z0, x1 - x0, 3))
try:
    for cz in range(z0 >> 4, ((z1 - 1) >> 4) + 1):
        for cx in range(x0 >> 4, ((x1 - 1) >> 4) + 1):
            chunk = level.get_chunk(cx, cz, dim)
            names = [b.base_name for b in chunk.block_palette]
            for lz in range(16):
                for lx in range(16):
                    x, z = cx * 16 + lx, cz * 16 + lz
                    if not (x0 <= x < x1 and z0 <= z < z1):
                        continue
                    column = np.asarray(chunk.blocks[lx, -64:320, lz]).ravel()
                    solid = [i for i, b in enumerate(column) if not names[b].endswith("air")]
                    if not solid:
                        continue
                    y = solid[-1]
                    name = names[column[y]]
                    color = COLORS.get(name, (70, 120, 50) if "leaves" in name else (110, 90, 60))
                    top[z - z0, x - x0] = y - 64
                    rgb[z - z0, x - x0] = color
finally:
    level.close()
# Hill shading from the north-west.
dz, dx = np.gradient(top.astype(float))
shade = np.clip(1.0 - 0.15 * (dx + dz), 0.55, 1.3)
img = np.clip(rgb * shade[..., None] / 255.0, 0, 1)
plt.imsave(out, img)
