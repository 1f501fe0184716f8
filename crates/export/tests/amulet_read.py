"""Reads blocks of a Minecraft Java world with amulet-core (the Amulet editor's
library), for crates/export/tests/amulet.rs.

Usage: amulet_read.py WORLD [X,Z ...]
Prints the data version amulet finds the world written for (`version N`), then one
line a block, bottom to top for each column: `x y z namespace:name`, for leaves
`|persistent=...` and for flowing and falling water `|level=...`.
"""

import sys

import amulet

world, columns = sys.argv[1], sys.argv[2:]
level = amulet.load_level(world)
try:
    print("version", level.level_wrapper.version)
    lo, hi = level.bounds("minecraft:overworld").min_y, level.bounds("minecraft:overworld").max_y
    for column in columns:
        x, z = (int(v) for v in column.split(","))
        for y in range(lo, hi):
            block, _ = level.get_version_block(x, y, z, "minecraft:overworld", ("java", (1, 21, 1)))
            name = f"{block.namespace}:{block.base_name}"
            if name.endswith("_leaves"):
                name += f"|persistent={block.properties['persistent'].py_str}"
            flow = block.properties.get("level")
            if name == "minecraft:water" and flow is not None and flow.py_str != "0":
                name += f"|level={flow.py_str}"
            print(x, y, z, name)
finally:
    level.close()
