//! Answering an invitation from the reader: a draft to the organiser carrying the
//! iTIP reply (`accept`, `tentative`, `decline`), sent like any reply; once sent,
//! the answer is kept so that the invitation's card shows it.

use crate::attach::itip::{reply, InviteAnswer};
use crate::engine::mailbox::compose::compose_error;
use crate::engine::mailbox::draft_parts::parts_dir;
use crate::engine::Result;
use crate::mail::compose::{Attachment, Draft};
use crate::store::{Store, StoredMessage};
use std::path::Path;

/// The file name of the reply beside the draft.
const REPLY_FILE: &str = "invite.ics";

/// The invitation a message carries: its attachment's bytes.
fn invitation_of(store: &Store, msg: &StoredMessage) -> Result<Option<Vec<u8>>> {
    for a in &msg.attachments {
        let ics = a.mime_type == "text/calendar"
            || a.name
                .as_deref()
                .is_some_and(|n| n.to_ascii_lowercase().ends_with(".ics"));
        if ics {
            if let Some(bytes) = store.attachment_bytes(&msg.key, a.index)? {
                return Ok(Some(bytes));
            }
        }
    }
    Ok(None)
}

/// Turns `draft` (a reply to `msg`, from `from`) into the answer to the invitation
/// `msg` carries: addressed to the organiser, the iTIP reply beside the draft file
/// at `path` and named on its Attach: line.
pub(in crate::engine) fn answer_draft(
    store: &Store,
    msg: &StoredMessage,
    mut draft: Draft,
    answer: InviteAnswer,
    path: &Path,
) -> Result<Draft> {
    let request = invitation_of(store, msg)?
        .ok_or_else(|| compose_error("this message carries no invitation to answer"))?;
    let me = draft.sender().map_err(compose_error)?;
    let now = chrono::Utc::now();
    let reply =
        reply(&request, (&me.address, me.name.as_deref()), answer, now).map_err(compose_error)?;
    if let Some(organizer) = &reply.organizer {
        draft.to = organizer.clone();
    }
    draft.cc.clear();
    draft.subject = format!("{}: {}", answer.subject_prefix(), reply.summary);
    let who = me.name.clone().unwrap_or_else(|| me.address.clone());
    draft.body = format!(
        "{who} has {} the invitation to {}.\n",
        answer.verb(),
        reply.summary
    );
    let dir = parts_dir(path);
    crate::engine::mailbox::privacy::create_private_dir_all(&dir).map_err(compose_error)?;
    let file = dir.join(REPLY_FILE);
    crate::engine::mailbox::privacy::write_private(&file, reply.calendar.as_bytes())
        .map_err(compose_error)?;
    draft.attach = vec![file.display().to_string()];
    Ok(draft)
}

/// Keeps the answer a sent draft carried, so the invitation's card shows it.
pub(in crate::engine) fn remember_answer(
    store: &Store,
    files: &[Attachment],
    answer: InviteAnswer,
) -> Result<()> {
    for f in files
        .iter()
        .filter(|f| f.content_type.starts_with("text/calendar"))
    {
        let text = String::from_utf8_lossy(&f.bytes);
        let Ok(calendar) = text.parse::<icalendar::Calendar>() else {
            continue;
        };
        use icalendar::Component;
        let uid = calendar
            .events()
            .next()
            .and_then(|e| e.get_uid())
            .map(str::to_string);
        if let Some(uid) = uid {
            store.record_invite_answer(uid.trim(), answer, chrono::Utc::now().timestamp())?;
        }
    }
    Ok(())
}

/// The content type of a calendar file: iMIP (RFC 6047) names the method.
pub(in crate::engine) fn calendar_content_type(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let method = text.lines().find_map(|l| {
        let l = l.trim();
        l.get(..7)
            .filter(|p| p.eq_ignore_ascii_case("METHOD:"))
            .map(|_| l[7..].trim().to_ascii_uppercase())
    })?;
    Some(format!("text/calendar; method={method}; charset=UTF-8"))
}
