//! Playing together on the screen: the names over the other players, the chat (the
//! last lines for a while; T opens the box, Enter sends), the player list (L), what
//! the connection is doing while it is not playing, and the panel's "Open to
//! others".

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::panel_state::PanelState;
use crate::mode::Mode;
use crate::net::{Chat, Hosting, OpenToOthers, Others, Say, Session};
use crate::player::PlayerCamera;
use crate::world::RenderOrigin;

/// How long a line of chat stays on screen, in seconds.
const SHOWN: f64 = 12.0;
/// Lines of chat shown at most.
const LINES: usize = 10;
/// The player's camera, to put names on screen.
type PlayerView<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<PlayerCamera>>;

/// How far above the feet a name is drawn, in blocks.
const NAME_HEIGHT: f64 = 2.2;

/// The chat box's text being typed, whether the player list is open, and the
/// "Open to others" fields.
#[derive(Resource)]
pub(super) struct Together {
    typing: String,
    list: bool,
    port: String,
    password: String,
    name: String,
}

impl Default for Together {
    fn default() -> Self {
        Self {
            typing: String::new(),
            list: false,
            port: terravox_net::server::DEFAULT_PORT.to_string(),
            password: String::new(),
            name: terravox_net::client::default_name(),
        }
    }
}

/// The panel's "Open to others" window: host the world being played on a server of
/// this terravox, which others join by this machine's address.
pub(super) fn draw_open_to_others(
    mut contexts: EguiContexts,
    mut together: ResMut<Together>,
    hosting: Res<Hosting>,
    session: Option<Res<Session>>,
    mut open: MessageWriter<OpenToOthers>,
    panel: Res<PanelState>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Above the "Your edits" window (drawn just before), which also stands at the
    // bottom right.
    let above = -8.0 - panel.edits_window_height - 8.0;
    egui::Window::new("Playing together")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, above])
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(session) = &session {
                let (server, me) = session.server();
                ui.label(format!("playing on {server} as {me}"));
                ui.label(hosting.describe());
                return;
            }
            ui.label("Open this world to others: a server of this terravox hosts it, and they join it with terravox play --join <your address>:PORT.");
            egui::Grid::new("host").num_columns(2).show(ui, |ui| {
                ui.label("port");
                ui.text_edit_singleline(&mut together.port);
                ui.end_row();
                ui.label("password");
                ui.add(egui::TextEdit::singleline(&mut together.password).password(true).hint_text("none: open to anyone"));
                ui.end_row();
                ui.label("your name");
                ui.text_edit_singleline(&mut together.name);
                ui.end_row();
            });
            let port = together.port.trim().parse::<u16>();
            if port.is_err() {
                ui.colored_label(egui::Color32::from_rgb(230, 70, 60), "the port is a number up to 65535");
            }
            let starting = matches!(*hosting, Hosting::Starting(_));
            if ui.add_enabled(port.is_ok() && !starting, egui::Button::new("Open to others")).clicked()
                && let Ok(port) = port
            {
                let password = Some(together.password.clone()).filter(|p| !p.is_empty());
                open.write(OpenToOthers {
                    port,
                    password,
                    name: together.name.clone(),
                });
            }
            ui.label(hosting.describe());
        });
    Ok(())
}

/// L opens and closes the player list (outside the panel and the chat box).
pub(super) fn toggle_list(keys: Res<ButtonInput<KeyCode>>, mut together: ResMut<Together>) {
    if keys.just_pressed(KeyCode::KeyL) {
        together.list = !together.list;
    }
}

/// Names over the others, the chat, the list, the connection's state.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_together(
    mut contexts: EguiContexts,
    time: Res<Time>,
    mode: Res<State<Mode>>,
    mut next: ResMut<NextState<Mode>>,
    (session, others, chat): (Option<Res<Session>>, Res<Others>, Res<Chat>),
    mut together: ResMut<Together>,
    mut say: MessageWriter<Say>,
    (origin, camera): (Res<RenderOrigin>, PlayerView),
) -> Result {
    let Some(session) = session else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let now = time.elapsed_secs_f64();
    if let Ok((camera, at)) = camera.single() {
        draw_names(ctx, now, &others, &origin, camera, at);
    }
    let typing = *mode.get() == Mode::Chat;
    egui::Area::new(egui::Id::new("chat"))
        .anchor(egui::Align2::LEFT_BOTTOM, [12.0, -90.0])
        .show(ctx, |ui| {
            ui.set_max_width(520.0);
            let recent = chat
                .lines
                .iter()
                .rev()
                .take(LINES)
                .filter(|(at, _)| typing || now - at < SHOWN)
                .collect::<Vec<_>>();
            for (_, line) in recent.into_iter().rev() {
                ui.label(
                    egui::RichText::new(line)
                        .color(egui::Color32::WHITE)
                        .background_color(egui::Color32::from_black_alpha(140)),
                );
            }
            if typing {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut together.typing)
                        .hint_text("say something (Enter sends, Esc closes)")
                        .desired_width(500.0),
                );
                field.request_focus();
                if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let text = std::mem::take(&mut together.typing);
                    let text = text.trim();
                    if !text.is_empty() {
                        say.write(Say(text.chars().take(200).collect()));
                    }
                    next.set(Mode::Playing);
                }
            }
        });
    if !session.playing() {
        egui::Area::new(egui::Id::new("connection"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 12.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(session.status()));
            });
    }
    if together.list {
        let (server, me) = session.server();
        egui::Window::new(format!("Players on {server}"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(format!("{me} (you)"));
                for (_, other) in others.iter() {
                    ui.label(&other.name);
                }
                ui.separator();
                ui.small(format!("{} playing · L closes", others.len() + 1));
            });
    }
    Ok(())
}

/// Each other player's name over its head, where it is on screen.
fn draw_names(
    ctx: &egui::Context,
    now: f64,
    others: &Others,
    origin: &RenderOrigin,
    camera: &Camera,
    at: &GlobalTransform,
) {
    let painter = ctx.layer_painter(egui::LayerId::background());
    for (_, other) in others.iter() {
        let Some(pose) = other.pose_at(now) else {
            continue;
        };
        let [x, y, z] = pose.feet;
        let head = origin.local(bevy::math::DVec3::new(x, y + NAME_HEIGHT, z));
        let Ok(screen) = camera.world_to_viewport(at, head) else {
            continue;
        };
        let pos = egui::pos2(screen.x, screen.y);
        let galley = painter.layout_no_wrap(
            other.name.clone(),
            egui::FontId::proportional(16.0),
            egui::Color32::WHITE,
        );
        let rect = egui::Rect::from_center_size(pos, galley.size()).expand(3.0);
        painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha(150));
        painter.galley(
            rect.min + egui::vec2(3.0, 3.0),
            galley,
            egui::Color32::WHITE,
        );
    }
}
