//! Playing together on the screen: the names over the other players, the chat (the
//! last lines for a while; T opens the box, Enter sends), the player list (L), and
//! what the connection is doing while it is not playing.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::mode::Mode;
use crate::net::{Chat, Others, Say, Session};
use crate::player::PlayerCamera;
use crate::world::RenderOrigin;

/// How long a line of chat stays on screen, in seconds.
const SHOWN: f64 = 12.0;
/// Lines of chat shown at most.
const LINES: usize = 10;
/// How far above the feet a name is drawn, in blocks.
const NAME_HEIGHT: f64 = 2.2;

/// The chat box's text being typed, and whether the player list is open.
#[derive(Resource, Default)]
pub(super) struct Together {
    typing: String,
    list: bool,
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
    (origin, camera): (
        Res<RenderOrigin>,
        Query<(&Camera, &GlobalTransform), With<PlayerCamera>>,
    ),
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
