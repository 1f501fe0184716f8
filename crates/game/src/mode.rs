//! The [`Mode`] state machine: Tab opens and closes the panel, Esc releases the
//! mouse, a click in the world (not on a UI window) grabs it and starts playing, T
//! opens the chat box on a server ([`CanChat`]; Enter sends and plays on). The
//! cursor is locked on entering [`Mode::Playing`] and freed on leaving it. Because a
//! state change takes effect at the start of the next frame, the grabbing click never
//! reaches the systems that only run while playing (it does not break a block).

use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, PrimaryWindow};

use crate::schedule::GameSystems;

/// What the player's input goes to.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The cursor is free and the world is idle; a click in the world starts playing.
    #[default]
    Released,
    /// The cursor is grabbed: mouse look, movement, breaking and placing.
    Playing,
    /// The generator panel has focus (Tab); gameplay keys are off.
    Panel,
    /// The chat box has the keys (T, on a server); gameplay keys are off.
    Chat,
}

/// Whether gameplay keys (the hotbar, flight) count: not while the panel or the chat
/// box has the keys.
pub(crate) fn keys_to_game(mode: Res<State<Mode>>) -> bool {
    matches!(mode.get(), Mode::Playing | Mode::Released)
}

/// Present on a server: T opens the chat box.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct CanChat;

/// Whether the pointer was over a UI window last frame (kept by the UI plugin; always
/// `false` without a UI).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct PointerOverUi(pub bool);

/// The device events a mode change depends on.
#[derive(Clone, Copy, Debug, Default)]
struct ModeKeys {
    tab: bool,
    esc: bool,
    click: bool,
    /// T, where the chat box can open.
    chat: bool,
}

/// The mode after `keys` in `mode`, if it changes.
fn next_mode(mode: Mode, keys: ModeKeys, over_ui: bool) -> Option<Mode> {
    match mode {
        Mode::Chat if keys.esc => Some(Mode::Released),
        // The chat box types every other key.
        Mode::Chat => None,
        Mode::Playing | Mode::Released if keys.chat => Some(Mode::Chat),
        _ if keys.tab => Some(if mode == Mode::Panel {
            Mode::Released
        } else {
            Mode::Panel
        }),
        Mode::Playing | Mode::Panel if keys.esc => Some(Mode::Released),
        Mode::Released if keys.click && !over_ui => Some(Mode::Playing),
        _ => None,
    }
}

/// The mode plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PointerOverUi>()
        .add_systems(Update, change_mode.in_set(GameSystems::Input))
        .add_systems(OnEnter(Mode::Playing), grab_cursor)
        .add_systems(OnExit(Mode::Playing), release_cursor);
}

fn change_mode(
    mode: Res<State<Mode>>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    over_ui: Res<PointerOverUi>,
    can_chat: Option<Res<CanChat>>,
    mut next: ResMut<NextState<Mode>>,
) {
    let pressed = ModeKeys {
        tab: keys.just_pressed(KeyCode::Tab),
        esc: keys.just_pressed(KeyCode::Escape),
        click: mouse.just_pressed(MouseButton::Left),
        chat: can_chat.is_some() && keys.just_pressed(KeyCode::KeyT),
    };
    if let Some(m) = next_mode(*mode.get(), pressed, over_ui.0) {
        next.set(m);
    }
}

fn set_grab(cursor: &mut Query<&mut CursorOptions, With<PrimaryWindow>>, grab: bool) {
    if let Ok(mut c) = cursor.single_mut() {
        c.grab_mode = if grab {
            CursorGrabMode::Locked
        } else {
            CursorGrabMode::None
        };
        c.visible = !grab;
    }
}

fn grab_cursor(mut cursor: Query<&mut CursorOptions, With<PrimaryWindow>>) {
    set_grab(&mut cursor, true);
}

fn release_cursor(mut cursor: Query<&mut CursorOptions, With<PrimaryWindow>>) {
    set_grab(&mut cursor, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAB: ModeKeys = ModeKeys {
        tab: true,
        esc: false,
        click: false,
        chat: false,
    };
    const ESC: ModeKeys = ModeKeys {
        tab: false,
        esc: true,
        click: false,
        chat: false,
    };
    const CLICK: ModeKeys = ModeKeys {
        tab: false,
        esc: false,
        click: true,
        chat: false,
    };
    const T: ModeKeys = ModeKeys {
        tab: false,
        esc: false,
        click: false,
        chat: true,
    };

    #[test]
    fn t_opens_the_chat_box_which_takes_every_key_but_esc() {
        assert_eq!(next_mode(Mode::Playing, T, false), Some(Mode::Chat));
        assert_eq!(next_mode(Mode::Released, T, false), Some(Mode::Chat));
        assert_eq!(next_mode(Mode::Panel, T, false), None);
        assert_eq!(next_mode(Mode::Chat, TAB, false), None);
        assert_eq!(next_mode(Mode::Chat, CLICK, false), None);
        assert_eq!(next_mode(Mode::Chat, ESC, false), Some(Mode::Released));
    }

    #[test]
    fn tab_toggles_the_panel_from_any_mode() {
        assert_eq!(next_mode(Mode::Released, TAB, false), Some(Mode::Panel));
        assert_eq!(next_mode(Mode::Playing, TAB, false), Some(Mode::Panel));
        assert_eq!(next_mode(Mode::Panel, TAB, false), Some(Mode::Released));
    }

    #[test]
    fn a_click_grabs_only_outside_the_ui_and_the_panel() {
        assert_eq!(next_mode(Mode::Released, CLICK, false), Some(Mode::Playing));
        assert_eq!(next_mode(Mode::Released, CLICK, true), None);
        assert_eq!(next_mode(Mode::Panel, CLICK, false), None);
        assert_eq!(next_mode(Mode::Playing, CLICK, false), None);
    }

    #[test]
    fn esc_releases() {
        assert_eq!(next_mode(Mode::Playing, ESC, false), Some(Mode::Released));
        assert_eq!(next_mode(Mode::Panel, ESC, false), Some(Mode::Released));
        assert_eq!(next_mode(Mode::Released, ESC, false), None);
        assert_eq!(next_mode(Mode::Released, ModeKeys::default(), false), None);
    }
}
