//! The shaders follow the vertex conventions defined once in Rust
//! (`terravox_mesher::vertex`): the packed layout, the face normals and texture
//! coordinates, the occlusion shade. Each check reads the WGSL source and lists where
//! it disagrees; the altered copies below show that each check can fail.

use terravox_mesher::Face;
use terravox_mesher::vertex::{self, Field, LAYOUT};

const PACKED_VERTEX: &str = include_str!("../src/render/shaders/packed_vertex.wgsl");
const CHUNK: &str = include_str!("../src/render/shaders/chunk.wgsl");

/// The body of `fn name` in `src` (from its `{` to the matching `}`).
fn body<'a>(src: &'a str, name: &str) -> Result<&'a str, String> {
    let start = src
        .find(&format!("fn {name}("))
        .ok_or_else(|| format!("no fn {name}"))?;
    let open = start + src[start..].find('{').ok_or("no body")?;
    let mut depth = 0;
    for (i, c) in src[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(&src[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    Err(format!("fn {name} is not closed"))
}

/// How `decode` must read a field: `w` is word 0, `t` word 1.
fn read_of(f: &Field) -> Vec<String> {
    let v = ["w", "t"][f.word];
    let mask = f.mask();
    let topmost = LAYOUT
        .iter()
        .filter(|g| g.word == f.word)
        .all(|g| g.shift <= f.shift);
    let mut forms = vec![if f.shift == 0 {
        format!("{v} & {mask}u")
    } else {
        format!("({v} >> {}u) & {mask}u", f.shift)
    }];
    if topmost && f.shift > 0 {
        // Nothing above it in its word: the shift alone reads it.
        forms.push(format!("{v} >> {}u", f.shift));
    }
    forms
}

/// Where `decode` disagrees with [`LAYOUT`].
fn layout_errors(src: &str) -> Vec<String> {
    let decode = match body(src, "decode") {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    let statements: Vec<&str> = decode.split(';').collect();
    let mut errors = Vec::new();
    let mut last: Option<(&str, usize)> = None;
    for f in &LAYOUT {
        let target = match f.name {
            "x" | "y" | "z" => "position",
            n if n.starts_with("tint") => "tint",
            n => n,
        };
        let Some(stmt) = statements
            .iter()
            .find(|s| s.contains(&format!("d.{target} =")))
        else {
            errors.push(format!("decode never sets d.{target}"));
            continue;
        };
        let found = read_of(f).iter().find_map(|form| {
            stmt.match_indices(form.as_str())
                .find(|(i, _)| {
                    // The shift alone is the whole read only where no mask follows it
                    // (`(t >> 24u) & 7u` is not `t >> 24u`).
                    let after = stmt[i + form.len()..].trim_start();
                    form.starts_with('(')
                        || !(after.starts_with(')') && after[1..].trim_start().starts_with('&'))
                })
                .map(|(i, _)| i)
        });
        match found {
            None => errors.push(format!(
                "{} (bits {}..{} of word {}) is not read as {:?} in `{}`",
                f.name,
                f.shift,
                f.shift + f.bits,
                f.word,
                read_of(f),
                stmt.trim()
            )),
            // Vector components in order: x before y before z, r before g before b.
            Some(at) => {
                if let Some((prev, before)) = last
                    && prev == target
                    && at < before
                {
                    errors.push(format!(
                        "{} is read before the component ahead of it",
                        f.name
                    ));
                }
                last = Some((target, at));
            }
        }
    }
    errors
}

/// The `case N: { return vecK<f32>(a, b, ...); }` arms of `fn name`, `default` as
/// face 5, each as its argument list.
fn arms(src: &str, name: &str) -> Result<Vec<Vec<String>>, String> {
    let body = body(src, name)?;
    let mut out = vec![Vec::new(); Face::ALL.len()];
    for arm in body
        .split("case ")
        .skip(1)
        .chain(body.split("default").skip(1))
    {
        let index = match arm.split(['u', ':']).next().map(str::trim) {
            Some(n) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                n.parse::<usize>().map_err(|e| e.to_string())?
            }
            _ => Face::ALL.len() - 1,
        };
        let open = arm
            .find("f32>(")
            .ok_or_else(|| format!("{name}: no vector in {arm}"))?;
        let close = open + arm[open..].find(')').ok_or("unclosed vector")?;
        let args = arm[open + 5..close]
            .split(',')
            .map(|a| a.trim().to_string());
        *out.get_mut(index)
            .ok_or_else(|| format!("{name}: case {index}"))? = args.collect();
    }
    Ok(out)
}

/// A WGSL argument `p.x`, `-p.z` or a number, at point `p`.
fn eval(arg: &str, p: [f32; 3]) -> Result<f32, String> {
    let (sign, rest) = match arg.strip_prefix('-') {
        Some(r) => (-1.0, r.trim()),
        None => (1.0, arg),
    };
    let v = match rest {
        "p.x" => p[0],
        "p.y" => p[1],
        "p.z" => p[2],
        n => n
            .parse::<f32>()
            .map_err(|_| format!("cannot read `{arg}`"))?,
    };
    Ok(sign * v)
}

/// Where `face_uv` and `face_normal` disagree with [`vertex::face_uv`] and
/// [`Face::normal`].
fn face_errors(src: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let p = [1.5, 2.25, 4.0];
    for (name, want) in [
        (
            "face_uv",
            Face::ALL.map(|f| vertex::face_uv(f, p).to_vec()).to_vec(),
        ),
        (
            "face_normal",
            Face::ALL
                .map(|f| f.normal().map(|n| n as f32).to_vec())
                .to_vec(),
        ),
    ] {
        let arms = match arms(src, name) {
            Ok(a) => a,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for (i, (arm, want)) in arms.iter().zip(&want).enumerate() {
            let got: Result<Vec<f32>, String> = arm.iter().map(|a| eval(a, p)).collect();
            if got.as_ref() != Ok(want) {
                errors.push(format!(
                    "{name} of face {i}: {arm:?} gives {got:?}, not {want:?}"
                ));
            }
        }
    }
    errors
}

/// Where `occlusion_shade` disagrees with [`vertex::occlusion_shade`], or the chunk
/// shader shades by something else.
fn occlusion_errors(packed: &str, chunk: &str) -> Vec<String> {
    let mut errors = Vec::new();
    match body(packed, "occlusion_shade") {
        Ok(b) => {
            let numbers: Vec<f32> = b
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter_map(|n| n.parse().ok())
                .collect();
            let want = [vertex::OCCLUSION_FLOOR, vertex::OCCLUSION_STEP];
            if numbers != want || !b.contains(&format!("{} + {} * ao", want[0], want[1])) {
                errors.push(format!("occlusion_shade is `{}`, not {want:?}", b.trim()));
            }
        }
        Err(e) => errors.push(e),
    }
    if !chunk.contains("occlusion_shade(in.shade)") {
        errors.push("chunk.wgsl does not shade by occlusion_shade(in.shade)".into());
    }
    errors
}

/// Where `flow_direction` disagrees with [`terravox_voxel::Flow`]: 0 is still water,
/// and `code - 1` counts [`Flow::DIRECTIONS`](terravox_voxel::Flow::DIRECTIONS)ths of
/// a turn.
fn flow_errors(src: &str) -> Vec<String> {
    let body = match body(src, "flow_direction") {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    let n = terravox_voxel::Flow::DIRECTIONS;
    [
        ("code == 0u".to_string(), "0 is still"),
        (
            format!("f32(code - 1u) / {n}.0"),
            "a turn in DIRECTIONS steps",
        ),
    ]
    .into_iter()
    .filter(|(form, _)| !body.contains(form.as_str()))
    .map(|(form, what)| format!("flow_direction does not read `{form}` ({what})"))
    .collect()
}

/// Where the chunk shader's water disagrees with the mesher's: it must lower a water
/// vertex by its drop (carried in the layer field) in
/// [`terravox_voxel::water_states::DROP_UNITS`] a block.
fn drop_errors(chunk: &str) -> Vec<String> {
    let units = terravox_voxel::water_states::DROP_UNITS;
    [
        (
            format!("const DROP_UNITS: f32 = {units}.0;"),
            "the drop's units",
        ),
        (
            "world.y -= f32(d.layer) / DROP_UNITS;".to_string(),
            "the drop lowering the vertex",
        ),
    ]
    .into_iter()
    .filter(|(form, _)| !chunk.contains(form.as_str()))
    .map(|(form, what)| format!("chunk.wgsl does not read `{form}` ({what})"))
    .collect()
}

#[test]
fn the_shaders_follow_the_vertex_conventions() {
    assert_eq!(drop_errors(CHUNK), Vec::<String>::new());
    assert_eq!(flow_errors(PACKED_VERTEX), Vec::<String>::new());
    assert_eq!(layout_errors(PACKED_VERTEX), Vec::<String>::new());
    assert_eq!(face_errors(PACKED_VERTEX), Vec::<String>::new());
    assert_eq!(occlusion_errors(PACKED_VERTEX, CHUNK), Vec::<String>::new());
}

#[test]
fn each_check_fails_on_a_shader_that_disagrees() {
    let moved_ao = PACKED_VERTEX.replace("(w >> 21u) & 3u", "(w >> 20u) & 3u");
    assert!(!layout_errors(&moved_ao).is_empty());
    let wide_layer = PACKED_VERTEX.replace("d.layer = w >> 23u", "d.layer = w >> 22u");
    assert!(!layout_errors(&wide_layer).is_empty());
    let narrow_sky = PACKED_VERTEX.replace("(t >> 24u) & 15u", "(t >> 24u) & 7u");
    assert_ne!(narrow_sky, PACKED_VERTEX);
    assert!(!layout_errors(&narrow_sky).is_empty());
    let swapped = PACKED_VERTEX.replace(
        "f32(w & 63u), f32((w >> 6u) & 63u)",
        "f32((w >> 6u) & 63u), f32(w & 63u)",
    );
    assert_ne!(swapped, PACKED_VERTEX);
    assert!(!layout_errors(&swapped).is_empty());
    let flipped_uv = PACKED_VERTEX.replace("vec2<f32>(p.x, -p.z)", "vec2<f32>(p.x, p.z)");
    assert_ne!(flipped_uv, PACKED_VERTEX);
    assert!(!face_errors(&flipped_uv).is_empty());
    let normal = PACKED_VERTEX.replace("vec3<f32>(-1.0, 0.0, 0.0)", "vec3<f32>(1.0, 0.0, 0.0)");
    assert_ne!(normal, PACKED_VERTEX);
    assert!(!face_errors(&normal).is_empty());
    let darker = PACKED_VERTEX.replace("0.42 + 0.193 * ao", "0.40 + 0.2 * ao");
    assert!(!occlusion_errors(&darker, CHUNK).is_empty());
    let literal = CHUNK.replace("occlusion_shade(in.shade)", "(0.42 + 0.193 * in.shade)");
    assert!(!occlusion_errors(PACKED_VERTEX, &literal).is_empty());
    let eight_ways = PACKED_VERTEX.replace("f32(code - 1u) / 15.0", "f32(code - 1u) / 8.0");
    assert_ne!(eight_ways, PACKED_VERTEX);
    assert!(!flow_errors(&eight_ways).is_empty());
    let ninths = CHUNK.replace(
        "const DROP_UNITS: f32 = 144.0;",
        "const DROP_UNITS: f32 = 9.0;",
    );
    assert_ne!(ninths, CHUNK);
    assert!(!drop_errors(&ninths).is_empty());
}
