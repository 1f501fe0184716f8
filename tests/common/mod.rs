//! What the real-window test and the gallery share: the game run under Xvfb for a
//! screenshot, the screenshot's pixels, and digging in a save as the game digs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos};

/// Games started so far, for their Xvfb display numbers.
static DISPLAYS: AtomicU32 = AtomicU32::new(0);

pub(crate) fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("real_window");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir
}

/// Runs the game under Xvfb with saves in `saves` (a fresh folder unless given) and
/// returns the screenshot's RGB pixels.
pub(crate) fn screenshot(name: &str, extra: &[&str], saves: Option<&Path>) -> (u32, u32, Vec<u8>) {
    screenshot_and_log(name, extra, saves).0
}

/// [`screenshot`], and what the game logged.
pub(crate) fn screenshot_and_log(
    name: &str,
    extra: &[&str],
    saves: Option<&Path>,
) -> ((u32, u32, Vec<u8>), String) {
    let dir = out_dir();
    let fresh = dir.join(format!("saves-{name}"));
    let _ = std::fs::remove_dir_all(&fresh);
    let saves = saves.unwrap_or(&fresh);
    let path = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&path);
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    }
    // Each game gets an Xvfb display number of its own. Xvfb under load has, rarely,
    // been up for xvfb-run and yet refused the game's connection (`XOpenDisplayFailed`,
    // before the game does anything): that start alone is tried once more.
    let mut attempts = 0;
    let (output, log) = loop {
        attempts += 1;
        let display = 100 + 10 * DISPLAYS.fetch_add(1, Ordering::Relaxed);
        let output = Command::new("xvfb-run")
            .args(["-a", "-n", &display.to_string()])
            .args([
                "-s",
                "-screen 0 1280x720x24",
                env!("CARGO_BIN_EXE_terravox"),
            ])
            // No horizon unless asked for: software Vulkan draws it at a frame or
            // two a second, so loading a wide one takes minutes here (it is measured
            // headless by `terravox bench --horizon` and tested in
            // crates/game/tests/horizon.rs).
            .args(if extra.contains(&"--view-distance") {
                &[][..]
            } else {
                &["--view-distance", "4"][..]
            })
            .args(if extra.contains(&"--horizon") {
                &[][..]
            } else {
                &["--horizon", "0"][..]
            })
            .arg("--save-dir")
            .arg(saves)
            .arg("--screenshot")
            .arg(&path)
            .args(extra)
            .env("WGPU_BACKEND", "vulkan")
            .env("XDG_RUNTIME_DIR", &runtime)
            .output()
            .expect("xvfb-run must be installed (apt-get install xvfb xauth mesa-vulkan-drivers)");
        let log = String::from_utf8_lossy(&output.stderr).into_owned()
            + &String::from_utf8_lossy(&output.stdout);
        if attempts < 2 && !output.status.success() && log.contains("XOpenDisplayFailed") {
            println!("{name}: Xvfb on :{display} refused the game's connection; starting again");
            continue;
        }
        break (output, log);
    };
    let status = output.status;
    assert!(
        status.success(),
        "{name}: the game exited with {status}:\n{log}"
    );
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
    ((info.width, info.height, rgb), log)
}

/// The RGB pixels of the rectangle `[x0, x1) x [y0, y1)`, row by row.
pub(crate) fn pixels(
    img: &(u32, u32, Vec<u8>),
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
) -> impl Iterator<Item = [u8; 3]> + '_ {
    (y0..y1).flat_map(move |y| {
        (x0..x1).map(move |x| {
            let i = ((y * img.0 + x) * 3) as usize;
            [img.2[i], img.2[i + 1], img.2[i + 2]]
        })
    })
}

/// Digs out `p` in `edits` as the game does when it is broken (the emptied block
/// wakes the water around it), for a save the game then opens: the water runs in
/// once the world is loaded. Underground and in the open alike it leaves air.
pub(crate) fn dig(edits: &mut Edits, p: BlockPos) {
    edits.set(p, Block::Air);
    let pending = edits.pending_mut();
    for q in std::iter::once(p).chain(p.neighbours()) {
        pending.wake(q);
    }
}
