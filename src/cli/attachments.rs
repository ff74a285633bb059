//! Attachment output shared by `quoth show` and `quoth status`.

use super::output::safe_line;
use quoth::engine::AttachmentState;

/// `Attachment:` lines for `quoth show`, each with its status sentence (and an
/// invitation's card).
pub fn print_states(states: &[AttachmentState]) {
    for a in states {
        outln!(
            "Attachment: {} ({}, {} bytes) [{}]",
            safe_line(&a.name),
            safe_line(&a.mime_type),
            a.size,
            a.status
        );
        if a.status != "no_text_view" {
            outln!("            {}", safe_line(&a.message));
        }
        // An invitation's card, a line at a time, with the answer sent.
        for line in a.card.iter().flat_map(|c| c.lines()) {
            outln!("            │ {}", safe_line(line));
        }
    }
}
