//! Detection of pages whose drawing objects loop.
//!
//! A PDF page can paint a reusable drawing (a form XObject) with the `Do`
//! operator, and a form can paint other forms. `pdf-extract` follows `Do`
//! recursively without a depth limit, so a form that paints itself, directly
//! or through others, recurses until the stack overflows. Rust cannot catch
//! a stack overflow: the whole mail reader would abort. Such a file is never
//! produced by accident, but mail brings hostile files, so every page is
//! checked before `pdf-extract` sees it.
//!
//! The check mirrors how `pdf-extract` resolves names: a form looks names up
//! in its own `/Resources`, or in those of whatever painted it when it has
//! none. Only names a stream actually paints with `Do` are followed, so
//! resource dictionaries shared between forms do not raise false alarms.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

/// Nesting deeper than this is refused as well: real documents nest a few
/// levels, and each level costs `pdf-extract` a large stack frame.
const MAX_DEPTH: usize = 48;

/// Bound on streams examined for one page, so the check itself stays cheap
/// on documents built to make it slow.
const MAX_VISITS: usize = 20_000;

/// Checks pages of one document, remembering what it learned across pages.
pub(crate) struct FormLoopGuard<'a> {
    doc: &'a Document,
    /// Names painted with `Do` by each stream, decoded once per document.
    painted: HashMap<ObjectId, Rc<Vec<Vec<u8>>>>,
    /// (stream, resources in effect) pairs already known to be loop-free.
    safe: HashSet<(ObjectId, usize)>,
}

impl<'a> FormLoopGuard<'a> {
    pub(crate) fn new(doc: &'a Document) -> Self {
        FormLoopGuard {
            doc,
            painted: HashMap::new(),
            safe: HashSet::new(),
        }
    }

    /// True when painting this page would recurse without end (or absurdly
    /// deep). Every drawing listed in the page's resources is treated as
    /// painted, which can only over-report work, not loops.
    pub(crate) fn page_has_loop(&mut self, page_id: ObjectId) -> bool {
        let Some(resources) = self.page_resources(page_id) else {
            return false;
        };
        let mut visits = 0;
        let mut path = Vec::new();
        self.names_in(resources)
            .into_iter()
            .any(|(_, id)| self.loops(id, resources, &mut path, &mut visits))
    }

    fn loops(
        &mut self,
        id: ObjectId,
        resources: &'a Dictionary,
        path: &mut Vec<ObjectId>,
        visits: &mut usize,
    ) -> bool {
        let key = (id, resources as *const Dictionary as usize);
        if self.safe.contains(&key) {
            return false;
        }
        *visits += 1;
        if path.contains(&id) || path.len() >= MAX_DEPTH || *visits > MAX_VISITS {
            return true;
        }
        let Some(stream) = self.stream(id) else {
            return false;
        };
        let own = stream
            .dict
            .get(b"Resources")
            .ok()
            .and_then(|o| self.deref(o).as_dict().ok());
        let inner = own.unwrap_or(resources);
        let painted = self.painted_by(id, stream);
        let available = self.names_in(inner);
        path.push(id);
        let found = painted.iter().any(|name| {
            available
                .iter()
                .find(|(n, _)| n == name)
                .is_some_and(|&(_, child)| self.loops(child, inner, path, visits))
        });
        path.pop();
        if !found {
            self.safe.insert(key);
        }
        found
    }

    /// Resources as `pdf-extract` finds them: on the page or inherited from
    /// its ancestors in the page tree.
    fn page_resources(&self, page_id: ObjectId) -> Option<&'a Dictionary> {
        let mut node = self.doc.get_dictionary(page_id).ok()?;
        for _ in 0..MAX_DEPTH {
            if let Ok(res) = node.get(b"Resources") {
                return self.deref(res).as_dict().ok();
            }
            let parent = node.get(b"Parent").ok()?.as_reference().ok()?;
            node = self.doc.get_dictionary(parent).ok()?;
        }
        None
    }

    /// The XObjects a resource dictionary names, by reference. Streams stored
    /// inline cannot be referred to again and so cannot close a loop.
    fn names_in(&self, resources: &Dictionary) -> Vec<(Vec<u8>, ObjectId)> {
        let Some(xobjects) = resources
            .get(b"XObject")
            .ok()
            .and_then(|o| self.deref(o).as_dict().ok())
        else {
            return Vec::new();
        };
        xobjects
            .iter()
            .filter_map(|(name, obj)| Some((name.clone(), obj.as_reference().ok()?)))
            .collect()
    }

    fn painted_by(&mut self, id: ObjectId, stream: &Stream) -> Rc<Vec<Vec<u8>>> {
        Rc::clone(
            self.painted
                .entry(id)
                .or_insert_with(|| Rc::new(do_operands(stream))),
        )
    }

    fn stream(&self, id: ObjectId) -> Option<&'a Stream> {
        self.doc.get_object(id).ok()?.as_stream().ok()
    }

    fn deref(&self, obj: &'a Object) -> &'a Object {
        match obj {
            Object::Reference(id) => self.doc.get_object(*id).unwrap_or(obj),
            _ => obj,
        }
    }
}

/// Names painted by `Do` in a stream, decoded the way `pdf-extract` decodes
/// it. Image data is scanned too, because `pdf-extract` runs images through
/// the content parser as well; it almost never parses, and then no `Do` in it
/// can run.
fn do_operands(stream: &Stream) -> Vec<Vec<u8>> {
    let data = match stream.decompressed_content() {
        Ok(data) => data,
        Err(_) => stream.content.clone(),
    };
    if !data.windows(2).any(|w| w == b"Do") {
        return Vec::new();
    }
    let Ok(content) = Content::decode(&data) else {
        return Vec::new();
    };
    content
        .operations
        .into_iter()
        .filter(|op| op.operator == "Do")
        .filter_map(|op| op.operands.first()?.as_name().ok().map(<[u8]>::to_vec))
        .collect()
}
