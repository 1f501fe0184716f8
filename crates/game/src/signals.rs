//! Ending the game by a signal (SIGTERM at logout or from `kill`, SIGINT from Ctrl+C,
//! SIGHUP) the way closing the window ends it: the app sends `AppExit`, and the exit
//! save writes everything unsaved.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use bevy::prelude::*;

use crate::schedule::GameSystems;

/// Set by the signal handler; one per process.
#[derive(Resource, Clone)]
struct SignalReceived(Arc<AtomicBool>);

/// Installs the process's handler for termination signals (once per process) and
/// exits the app when one arrives. The game adds it when it has a window; a headless
/// app adds it to be ended by signals too.
pub struct ExitOnSignal;

impl Plugin for ExitOnSignal {
    fn build(&self, app: &mut App) {
        match handler_flag() {
            Ok(flag) => {
                app.insert_resource(SignalReceived(flag))
                    .add_systems(Update, exit_on_signal.in_set(GameSystems::Input));
            }
            Err(e) => warn!("no handler for termination signals ({e}); a kill will not save"),
        }
    }
}

/// The flag the handler sets, installing the handler the first time.
fn handler_flag() -> Result<Arc<AtomicBool>, String> {
    static FLAG: OnceLock<Result<Arc<AtomicBool>, String>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        ctrlc::set_handler(move || set.store(true, Ordering::SeqCst))
            .map(|()| flag)
            .map_err(|e| e.to_string())
    })
    .clone()
}

fn exit_on_signal(received: Res<SignalReceived>, mut exit: MessageWriter<AppExit>) {
    if received.0.swap(false, Ordering::SeqCst) {
        info!("termination signal: saving and exiting");
        exit.write(AppExit::Success);
    }
}
