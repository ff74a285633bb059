//! Tags from the UI: `tag` asks for `+name -name` words (Tab completes a name from
//! the tags in use) and tags the thread selected, or the message read or the search
//! hit selected. The tags of each thread show in the list and the reader's title.
//! `mute` quiets a thread; the engine's answers about tags and view counts land here.

use super::app::App;
use super::keymap::Mode;
use super::reader_actions::PromptFor;
use crate::engine::handle::{EngineEvent, EngineRequest};
use crate::engine::mailbox::moves::MoveTarget;
use crate::engine::mailbox::muting::MUTED;
use crate::engine::mailbox::tagging::{TagReport, TagTarget};
use crate::mail::model::ThreadId;
use crate::store::tags::check_tag;
use crossterm::event::{KeyCode, KeyEvent};

/// The words of a tag prompt: `+name` adds, `-name` removes, a bare name adds.
pub fn parse_tag_words(text: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    for word in text.split_whitespace() {
        let (list, name) = match word.strip_prefix('-') {
            Some(name) => (&mut remove, name),
            None => (&mut add, word.strip_prefix('+').unwrap_or(word)),
        };
        check_tag(name).map_err(|e| format!("'{word}': {e}"))?;
        list.push(name.to_string());
    }
    if add.is_empty() && remove.is_empty() {
        return Err("no tag given: +name adds, -name removes".into());
    }
    Ok((add, remove))
}

/// The completion of the last word of `text` among `known` tag names: the text
/// with the word completed as far as the names agree, and the names that fit.
pub fn complete_tag(text: &str, known: &[String]) -> (String, Vec<String>) {
    let start = text.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let (head, word) = text.split_at(start);
    let sign = word
        .chars()
        .next()
        .filter(|c| *c == '+' || *c == '-')
        .map_or(0, char::len_utf8);
    let (sign, stem) = word.split_at(sign);
    let fits: Vec<String> = known
        .iter()
        .filter(|t| t.starts_with(stem))
        .cloned()
        .collect();
    let Some(first) = fits.first() else {
        return (text.to_string(), fits);
    };
    let mut common = first.clone();
    for t in &fits[1..] {
        let same = common
            .char_indices()
            .zip(t.chars())
            .find(|((_, a), b)| a != b)
            .map_or(common.len().min(t.len()), |((i, _), _)| i);
        common.truncate(same);
    }
    let end = if fits.len() == 1 { " " } else { "" };
    (format!("{head}{sign}{common}{end}"), fits)
}

impl App {
    /// `tag`: asks for the tags to add and remove on what is selected or read.
    pub(super) fn tag(&mut self, mode: Mode) {
        let target = match mode {
            Mode::Reader => self
                .reader
                .as_ref()
                .filter(|r| !r.loading)
                .and_then(|r| r.messages.get(r.current))
                .map(|m| TagTarget::Message(m.key)),
            _ if self.threads.picker.is_some() => None,
            _ if self.threads.search.is_some() => {
                self.threads.selected_hit_key().map(TagTarget::Message)
            }
            _ => self.threads.selected_thread().map(TagTarget::Thread),
        };
        let Some(target) = target else {
            return self
                .status
                .note("select a thread or open a message to tag it");
        };
        let label = match target {
            TagTarget::Thread(_) => "Tag the thread (+name -name, Tab completes)",
            TagTarget::Message(_) => "Tag the message (+name -name, Tab completes)",
        };
        self.ask_line(label, "+", PromptFor::Tag(target));
        self.request(|req| EngineRequest::Tags { req });
    }

    /// The tag words were given.
    pub(super) fn tag_answered(&mut self, target: TagTarget, text: String) {
        match parse_tag_words(&text) {
            Ok((add, remove)) => {
                self.request(|req| EngineRequest::Tag {
                    req,
                    target,
                    add,
                    remove,
                });
            }
            Err(e) => self.status.error(e),
        }
    }

    /// Tab in the tag prompt completes the name being typed.
    pub(super) fn tag_prompt_key(&mut self, key: &KeyEvent) -> bool {
        if key.code != KeyCode::Tab {
            return false;
        }
        let Some(p) = self
            .line_prompt
            .as_mut()
            .filter(|p| matches!(p.purpose, PromptFor::Tag(_)))
        else {
            return false;
        };
        let text = p.input.lines().join(" ");
        let (done, fits) = complete_tag(&text, &self.known_tags);
        let mut input = tui_textarea::TextArea::from([done]);
        input.set_cursor_line_style(Default::default());
        input.move_cursor(tui_textarea::CursorMove::End);
        p.input = input;
        match fits.len() {
            0 => self.status.note("no tag in use starts so"),
            1 => {}
            _ => self.status.note(fits.join(" ")),
        }
        true
    }

    /// `mute`: a muted thread's new mail arrives read and archived. Muting tags the
    /// thread `muted`, marks it read and archives it; on a muted thread it unmutes.
    pub(super) fn mute(&mut self, mode: Mode) {
        let thread = match mode {
            Mode::Reader => self.reader.as_ref().map(|r| r.thread),
            _ if self.threads.picker.is_some() => None,
            _ => self.threads.selected_thread(),
        };
        let Some(thread) = thread else {
            return self.status.note("select a thread to mute it");
        };
        let target = TagTarget::Thread(thread);
        let tag = vec![MUTED.to_string()];
        let muted = self
            .threads
            .tags
            .get(&thread)
            .is_some_and(|t| t.iter().any(|x| x == MUTED));
        if muted {
            self.request(|req| EngineRequest::Tag {
                req,
                target,
                add: Vec::new(),
                remove: tag,
            });
            return self
                .status
                .note("unmuted: new replies arrive as other mail does");
        }
        self.request(|req| EngineRequest::Tag {
            req,
            target,
            add: tag,
            remove: Vec::new(),
        });
        let Some(summary) = self
            .threads
            .every_thread()
            .iter()
            .find(|t| t.id == thread)
            .cloned()
        else {
            return;
        };
        self.new_action();
        if summary.unread > 0 {
            for key in &summary.messages {
                self.user_flag(*key, 'S', true);
            }
        }
        self.move_keys(summary.messages, MoveTarget::Archive);
        self.status
            .note("muted: the thread is archived, and its new replies arrive read there");
    }

    /// Events about tags and view counts.
    pub(super) fn on_state_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::Counts { req, counts } => self.counts_arrived(req, counts),
            EngineEvent::Tagged { req, report } if self.in_flight.remove(&req) => {
                self.tagged(report)
            }
            EngineEvent::ThreadTags { tags, every } => self.thread_tags(tags, every),
            EngineEvent::TagList { req, tags } => {
                self.in_flight.remove(&req);
                self.known_tags = tags.into_iter().map(|(t, _)| t).collect();
            }
            _ => {}
        }
    }

    /// Tags changed on this UI's request.
    pub(super) fn tagged(&mut self, report: TagReport) {
        let note = match report.changed {
            0 => "the tags were already so".to_string(),
            1 => "tags changed on 1 message".to_string(),
            n => format!("tags changed on {n} messages"),
        };
        self.status.note(note);
    }

    /// The tags of threads, after the thread list (`every`) or a change.
    pub(super) fn thread_tags(&mut self, tags: Vec<(ThreadId, Vec<String>)>, every: bool) {
        if every {
            self.threads.tags.clear();
        }
        for (id, t) in tags {
            if t.is_empty() {
                self.threads.tags.remove(&id);
            } else {
                self.threads.tags.insert(id, t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_words_add_remove_and_refuse_bad_names() {
        let (add, remove) = parse_tag_words(" +work later -inbox ").expect("words");
        assert_eq!(add, ["work", "later"]);
        assert_eq!(remove, ["inbox"]);
        assert!(parse_tag_words("+").is_err(), "an empty name");
        assert!(parse_tag_words("   ").is_err(), "nothing given");
        assert!(parse_tag_words("+a,b").unwrap_err().contains("'+a,b'"));
    }

    #[test]
    fn the_last_word_completes_as_far_as_the_names_agree() {
        let known: Vec<String> = ["receipts", "recipes", "work"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(complete_tag("+w", &known).0, "+work ");
        let (text, fits) = complete_tag("-inbox +rec", &known);
        assert_eq!(text, "-inbox +rec");
        assert_eq!(fits, ["receipts", "recipes"]);
        assert_eq!(complete_tag("+rece", &known).0, "+receipts ");
        assert_eq!(complete_tag("-r", &known).0, "-rec");
        let (text, fits) = complete_tag("+zz", &known);
        assert_eq!((text.as_str(), fits.len()), ("+zz", 0));
    }
}
