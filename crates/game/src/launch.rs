//! Opening the game window: checks that a display and a GPU are there (a clear
//! message instead of a panic), then Bevy's default plugins, egui and the game.

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy::winit::WinitSettings;

use crate::app::GamePlugin;
use crate::config::PlayOptions;

/// On Linux and the BSDs, a window needs an X11 or Wayland display: say so rather
/// than panic in the windowing library.
fn find_display() -> Result<(), String> {
    let unix_desktop = cfg!(all(unix, not(target_os = "macos")));
    let display = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if unix_desktop && !display {
        return Err(
            "no display to open the game window on (DISPLAY and WAYLAND_DISPLAY are \
                    unset). Run it in a desktop session, or under `xvfb-run` for a virtual \
                    one. `terravox map`, `terravox config`, `terravox spawn` and `terravox bench` need no window."
                .into(),
        );
    }
    Ok(())
}

/// Looks for a GPU (or a software renderer) the way the renderer will, so a machine
/// without one gets a clear message instead of a panic.
fn find_gpu() -> Result<(), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        bevy::tasks::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()));
    adapter.map(|_| ()).map_err(|e| {
        format!(
            "no GPU or graphics driver was found ({e}). terravox draws with Vulkan, Metal, \
             DirectX 12 or OpenGL. On Linux without a GPU, install Mesa's software Vulkan \
             (`apt-get install mesa-vulkan-drivers libvulkan1`) and run with \
             WGPU_BACKEND=vulkan. `terravox map`, `terravox config`, `terravox spawn` and `terravox bench` \
             work without a GPU."
        )
    })
}

/// Opens the game window and runs until it is closed (or the screenshot is taken).
pub fn run(options: PlayOptions) -> Result<(), String> {
    terravox_worldgen::Generator::new(&options.world).map_err(|e| e.to_string())?;
    find_display()?;
    find_gpu()?;
    let automated = options.screenshot.is_some();
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("terravox — {}", options.world.seed.text()),
                    resolution: WindowResolution::new(1280, 720),
                    present_mode: PresentMode::AutoVsync,
                    ..default()
                }),
                ..default()
            })
            .set(crate::schedule::task_pools()),
    )
    .add_plugins(bevy_egui::EguiPlugin::default())
    .add_plugins(GamePlugin {
        options,
        headless: false,
    });
    if automated {
        // The Xvfb window never has focus; keep updating regardless.
        app.insert_resource(WinitSettings::continuous());
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}
