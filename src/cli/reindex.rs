//! `quoth reindex` (the tantivy index from sled) and `quoth rebuild` (sled from the mail).

use super::output::print_json;
use anyhow::Result;

/// Reindexes in the data directory's server (its reads wait meanwhile).
pub fn run(client: &mut quoth::serve::client::Client, json: bool) -> Result<i32> {
    let v = client.call(quoth::serve::protocol::Op::Reindex, &mut |_| {})?;
    report(&v, json)
}

fn report(v: &serde_json::Value, json: bool) -> Result<i32> {
    if json {
        print_json(v)?;
        return Ok(0);
    }
    let n = v["indexed"].as_u64().unwrap_or(0);
    let secs = v["seconds"].as_f64().unwrap_or(0.0);
    outln!("reindexed {n} messages in {secs:.2} s");
    let queued = v["attachments_queued"].as_u64().unwrap_or(0);
    if queued > 0 {
        outln!("{queued} attachments not read yet: `quoth embed` reads them");
    }
    Ok(0)
}

/// `quoth rebuild`: a new store from the recorded sources, then the attachment and
/// embedding jobs (texts whose vector was kept finish at once).
pub fn rebuild(data_dir: &std::path::Path, json: bool) -> Result<i32> {
    let report = quoth::serve::host::rebuild(data_dir, &mut |_| {})?;
    if json {
        print_json(&report)?;
    } else {
        outln!(
            "rebuilt the store: {} messages from {} files, {} quarantined, in {:.2} s",
            report.added,
            report.files_read,
            report.quarantined,
            report.seconds
        );
    }
    super::ingest::embed(&mut super::connect(data_dir)?, json)?;
    Ok(0)
}
