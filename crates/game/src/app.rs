//! The game as one plugin: [`GamePlugin`] adds every plugin of the crate in one list
//! (a headless game leaves out what draws: `render`, the drawn `sky`, `ui` and
//! `signals`), and [`headless_app`] is a windowless game for the tests and
//! `terravox bench`.

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use crate::config::PlayOptions;
use crate::mode::Mode;
use crate::{
    config, editing, horizon, mode, net, persistence, player, render, schedule, signals, sky,
    streaming, ui, water_flow, world,
};

/// All game plugins on top of Bevy's (and egui's, unless headless).
pub struct GamePlugin {
    /// The start-up options.
    pub options: PlayOptions,
    /// No window, no rendering, no UI: for tests and `terravox bench`. Input
    /// resources are created empty so tests can press keys.
    pub headless: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(schedule::plugin);
        if self.headless {
            if !app.is_plugin_added::<StatesPlugin>() {
                app.add_plugins(StatesPlugin);
            }
            app.init_resource::<ButtonInput<KeyCode>>()
                .init_resource::<ButtonInput<MouseButton>>()
                .init_resource::<AccumulatedMouseMotion>()
                .init_resource::<AccumulatedMouseScroll>();
        }
        let start = if self.options.panel_open {
            Mode::Panel
        } else {
            Mode::Released
        };
        app.insert_state(start)
            .edit_schedule(StateTransition, |s| {
                s.set_executor(SingleThreadedExecutor::new());
            })
            .add_plugins((
                config::plugin(self.options.clone()),
                world::plugin(self.options.world.clone()),
                mode::plugin,
                player::plugin,
                editing::plugin,
                persistence::plugin(self.options.save_dir.clone()),
                water_flow::plugin,
                net::plugin(self.options.remote.clone(), self.options.server_exe.clone()),
                streaming::plugin(self.options.culling),
                horizon::plugin,
                sky::clock_plugin(self.options.time),
            ));
        if !self.headless {
            app.add_plugins((
                render::material::plugin,
                sky::plugin(self.options.sky),
                render::plugin,
                ui::plugin,
                signals::ExitOnSignal,
            ));
        }
    }
}

/// A windowless game on `MinimalPlugins`: for tests and `terravox bench`.
pub fn headless_app(options: PlayOptions) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(schedule::task_pools()))
        .add_plugins(GamePlugin {
            options,
            headless: true,
        });
    app
}
