//! The real-window test: the release binary under Xvfb with Mesa's software Vulkan
//! renders terrain and sky, different seeds give different pictures, and `--panel`
//! draws the panel. Ignored by default (it needs `xvfb-run` and takes minutes);
//! `.ci/run` runs it with `--ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("real_window");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir
}

/// Runs the game under Xvfb and returns the screenshot's RGB pixels.
fn screenshot(name: &str, extra: &[&str]) -> (u32, u32, Vec<u8>) {
    let dir = out_dir();
    let path = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&path);
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    }
    let status = Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            "-screen 0 1280x720x24",
            env!("CARGO_BIN_EXE_terravox"),
        ])
        .args(["--view-distance", "4", "--screenshot"])
        .arg(&path)
        .args(extra)
        .env("WGPU_BACKEND", "vulkan")
        .env("XDG_RUNTIME_DIR", &runtime)
        .status()
        .expect("xvfb-run must be installed (apt-get install xvfb xauth mesa-vulkan-drivers)");
    assert!(status.success(), "{name}: the game exited with {status}");
    // A panic in the render thread can exit 0: the PNG must exist.
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("{name}: no screenshot at {}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    let channels = info.color_type.samples();
    let rgb: Vec<u8> = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    println!(
        "{name}: {}x{} written to {}",
        info.width,
        info.height,
        path.display()
    );
    (info.width, info.height, rgb)
}

/// Distinct colours (quantised) in a rectangle.
fn colours(img: &(u32, u32, Vec<u8>), x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    let mut set = std::collections::HashSet::new();
    for y in y0..y1 {
        for x in x0..x1 {
            let i = ((y * img.0 + x) * 3) as usize;
            set.insert((img.2[i] >> 3, img.2[i + 1] >> 3, img.2[i + 2] >> 3));
        }
    }
    set.len()
}

fn is_sky(p: &[u8]) -> bool {
    // ClearColor srgb(0.55, 0.73, 0.93), possibly fogged.
    p[2] > 180 && p[2] > p[0] + 30
}

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn game_renders_terrain_sky_and_panel() {
    let a = screenshot("seed_a", &["--seed", "alpha"]);
    let (w, h, ref px) = a;
    assert!(
        colours(&a, 0, 0, w, h) > 50,
        "the screenshot is nearly one colour"
    );
    let sky = px.chunks(3).filter(|p| is_sky(p)).count();
    let total = (w * h) as usize;
    assert!(sky > total / 50, "no sky: {sky} of {total} pixels");
    assert!(
        sky < total * 95 / 100,
        "no terrain: {sky} of {total} pixels are sky"
    );

    let b = screenshot("seed_b", &["--seed", "beta", "--preset", "islands"]);
    let differing =
        a.2.chunks(3)
            .zip(b.2.chunks(3))
            .filter(|(p, q)| p != q)
            .count();
    assert!(
        differing > total / 10,
        "two seeds gave nearly the same picture ({differing} pixels differ)"
    );

    // The panel is an egui window at the top left: many distinct colours (text on a
    // dark frame) where the no-panel run shows terrain or sky.
    let c = screenshot("panel", &["--seed", "alpha", "--panel"]);
    let dark = |img: &(u32, u32, Vec<u8>)| {
        let mut n = 0;
        for y in 40..400 {
            for x in 20..340 {
                let i = ((y * img.0 + x) * 3) as usize;
                n += (img.2[i] < 60 && img.2[i + 1] < 60 && img.2[i + 2] < 60) as usize;
            }
        }
        n
    };
    assert!(
        dark(&c) > dark(&a) + 20_000,
        "no panel drawn: {} dark pixels vs {}",
        dark(&c),
        dark(&a)
    );
}
