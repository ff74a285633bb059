//! Tests of the parent module, kept apart so the module reads in one sitting.

mod trailing_disclaimer_tests {
    use super::super::*;

    #[test]
    fn disclaimer_below_quoted_history_is_a_disclaimer() {
        let body = "Fine by me.\n\n-----Original Message-----\nFrom: A\nSent: Monday\nTo: B\nSubject: x\n\nquoted words\n\nThis message is confidential and may be privileged. If you are not the intended recipient, please notify the sender and delete it.\n";
        let segs = segment_body(body);
        let last = segs.last().expect("segments");
        assert_eq!(last.kind, SegmentKind::Disclaimer);
        assert!(body[last.start..last.end].contains("intended recipient"));
        assert!(segs.iter().any(|s| s.kind == SegmentKind::Quoted));
    }
}

mod shapes {
    use super::super::*;
    use SegmentKind::*;

    /// Asserts the coverage invariants and returns the segments.
    fn check(body: &str) -> Vec<Segment> {
        let segs = segment_body(body);
        assert_eq!(segs.is_empty(), body.is_empty());
        if let (Some(first), Some(last)) = (segs.first(), segs.last()) {
            assert_eq!((first.start, last.end), (0, body.len()));
        }
        for w in segs.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert_ne!(w[0].kind, w[1].kind, "unmerged neighbours");
        }
        for s in &segs {
            assert!(s.start < s.end);
            assert!(body.is_char_boundary(s.start) && body.is_char_boundary(s.end));
        }
        segs
    }

    fn kinds(body: &str) -> Vec<SegmentKind> {
        check(body).iter().map(|s| s.kind).collect()
    }

    /// Concatenated text of all segments of `kind`.
    fn text_of(body: &str, kind: SegmentKind) -> String {
        let segs = check(body);
        segs.iter()
            .filter(|s| s.kind == kind)
            .map(|s| &body[s.start..s.end])
            .collect()
    }

    /// Authored text contains every `|`-separated `keep` and none of `drop`.
    fn authored(body: &str, keep: &str, drop: &str) {
        let a = text_of(body, Authored);
        for k in keep.split('|').filter(|k| !k.is_empty()) {
            assert!(a.contains(k), "authored lacks {k:?}: {a:?}");
        }
        for d in drop.split('|').filter(|d| !d.is_empty()) {
            assert!(!a.contains(d), "authored has {d:?}: {a:?}");
        }
    }

    #[test]
    fn kind_helpers() {
        assert!(Authored.is_citable());
        assert!([Quoted, Forwarded, Signature, Disclaimer]
            .iter()
            .all(|k| !k.is_citable()));
        assert_eq!(
            (Disclaimer.label(), Forwarded.label()),
            ("disclaimer", "forwarded")
        );
    }

    #[test]
    fn empty_and_plain() {
        assert!(check("").is_empty());
        assert_eq!(
            kinds("Please send me your team's badge ids\nThanks\n"),
            [Authored]
        );
    }

    #[test]
    fn lotus_forward_with_note_above() {
        let body = "Please send me your team's badge ids\n---------------------- Forwarded by Odile Varga/DAL/NWT on 03/19/2002 04:12 PM \n---------------------------\nFrom: Bram Tessier/NORTHWIND@northwindXgate on 03/17/2002 10:41 AM\nTo: Odile Varga/DAL/NWT@NWT\ncc:  \nSubject: Badge Ids\n\nCould you send me the badge ids for the new contractors?\n\nThank you,\n\nBram T. Tessier \nFacilities Planning \n";
        authored(
            body,
            "Please send me your team's badge ids",
            "Forwarded|Could you|Bram",
        );
        assert!(text_of(body, Forwarded).starts_with("----------------------"));
    }

    #[test]
    fn lotus_forward_only() {
        let body = "---------------------- Forwarded by Lena Moravec/Corp/Northwind on 09/14/2000 \n02:47 PM ---------------------------\n\n\nLena Moravec\n09/08/2000 03:36 PM\nTo: Rafe Duquesne/DAL/NWT@NWT, Tilde Okafor/DAL/NWT@NWT\ncc:  \n\nSubject: Retirement Lunch/Party\n\nA few of us on the third floor are planning a small send-off\n";
        assert_eq!(kinds(body), [Forwarded]);
    }

    #[test]
    fn other_forward_markers() {
        for marker in [
            "---------- Forwarded message ---------",
            "Begin forwarded message:",
            "-----Forwarded Message-----",
            "----- Forwarded by Nils Harrow/Northwind Communications on 11/06/00 09:14 AM -----",
        ] {
            let body = format!("FYI, see below.\n\n{marker}\nFrom: Bob\nThe board met today.\n");
            authored(&body, "FYI, see below.", "orwarded|board met");
            assert!(text_of(&body, Forwarded).contains("board met"));
        }
        // Prose mentioning a forward is not a marker.
        authored(
            "Note: forwarded message attached.\n",
            "forwarded message",
            "",
        );
    }

    #[test]
    fn original_message_chain() {
        let body = "Dear Ines:\n\nMany thanks for your note of March 22nd.\n\nSincerely,\n\nHal Corwin\n\n\n\n -----Original Message-----\nFrom: \tInes.Marlow@example.net@NORTHWIND\nSent:\tThursday, March 22, 2001 4:27 PM\nTo:\tCorwin, Harold\nSubject:\tTom's Transfer\n\nMr. Corwin, I am writing this with some concern\n\n-----Original Message-----\nFrom: Someone\nolder text\n";
        authored(
            body,
            "Many thanks for your note|Hal Corwin",
            "Original|Ines.Marlow|concern|older",
        );
        assert!(text_of(body, Quoted).contains("older text"));
        assert_eq!(kinds(body), [Authored, Quoted]);
    }

    #[test]
    fn original_message_variants() {
        let spaced = "Sounds good.\n\n----- Original Message ----- =20\nFrom: \"Bob\" <bob@x.com>\nIs Tuesday ok?\n";
        authored(spaced, "Sounds good.", "Original|Tuesday");
        let only = "-----Original Message-----\nFrom: Bob\nSent: Monday\nIs Tuesday ok?\n";
        assert_eq!(kinds(only), [Quoted]);
        authored("The original message was lost.\n", "original message", "");
    }

    #[test]
    fn on_wrote_with_quotes() {
        let body = "I agree with Milo.\n\nOn Tue, 14 Nov 2000, Theo.Sandoval@example.com wrote:\n\n> I cut \"really\" before \"important step\" to tighten the wording.\n> Is this now okay?\n";
        authored(body, "I agree with Milo.", "wrote:|wording|okay?");
        let wrapped = "Yes.\n\nOn Tue, Nov 14, 2000 at 9:05 AM, Theodore Sandoval\n<theo.sandoval@example.com> wrote:\nThe draft is nearly final.\n";
        authored(wrapped, "Yes.", "Theodore Sandoval|wrote:|nearly final");
        // Without `>` lines the attribution still starts quoted history.
        let bare =
            "Fine by me.\n\nOn Tue, Jan 2, 2001 at 10:00, Omar wrote:\nCan you review the deck?\n";
        authored(bare, "Fine by me.", "Omar wrote:|review the deck");
    }

    #[test]
    fn plain_wrote_line() {
        // "Hal wrote:" introduces Hal's own text in some sent mail; no `>` follows.
        let own = "Hal wrote:\n\nMaren/Odette -\n\nI think we should simply cover these fees.\n";
        assert_eq!(kinds(own), [Authored]);
        let quoted =
            "Thanks Wren.\n\nTheo.Sandoval@example.com wrote:\n\n> The draft is nearly final.\n";
        authored(quoted, "Thanks Wren.", "Theo.Sandoval|nearly final");
    }

    #[test]
    fn interleaved_reply() {
        let body = "Hi Theo,\n\n> Can you make the 3pm call?\nYes, I will dial in.\n\n> Should we invite Milo?\n> He asked about it.\nNo, not this time.\n\nHal\n";
        let keep = "Hi Theo,|Yes, I will dial in.|No, not this time.|Hal";
        authored(body, keep, "3pm call|invite Milo|asked about");
        assert_eq!(kinds(body), [Authored, Quoted, Authored, Quoted, Authored]);
        assert_eq!(kinds("> line one\n> line two\n>\n> line three\n"), [Quoted]);
    }

    #[test]
    fn outlook_blocks() {
        let body = "Approved.\n\n________________________________\nFrom: Petra Vance\nSent: Tuesday, May 8, 2001 9:15 AM\nTo: Harold Corwin\nSubject: Travel claim\n\nPlease approve the attached claim.\n";
        authored(body, "Approved.", "____|Petra|approve the attached");
        let tight = "Approved.\nFrom: Petra Vance\nSent: Tuesday, May 8, 2001 9:15 AM\nTo: Harold Corwin\nPlease approve.\n";
        authored(tight, "Approved.", "Petra|Please approve");
        let dated = "Nell, see the note below.\n\nFrom: HARGROVE_ANNA_LEE@EXAMPLE.COM\nDate: Tue, 14 Nov 2000 10:32:07 -0500\nTo: Harold Corwin\nSubject: Panel\n\nThe panel was great.\n";
        authored(
            dated,
            "see the note below",
            "HARGROVE_ANNA_LEE|panel was great",
        );
    }

    #[test]
    fn memo_headers_at_top_stay_authored() {
        let memo = "To: All Employees\nFrom: Hal Corwin\nDate: November 20, 2000\nSubject: Food Drive\ncc: HR\n\nThe food drive starts today.\n";
        assert_eq!(kinds(memo), [Authored]);
        let memo2 = "From:         Ada Penrose\nDate:         November 20, 2000\nRe:            Harbor site or river site?\n\nText.\n";
        assert_eq!(kinds(memo2), [Authored]);
    }

    #[test]
    fn lotus_reply_headers() {
        let inline = "I think we should simply cover these fees.\n\nHal \n\n\nMaren Corwin <maren@travel.example.com> on 02/09/2000 06:48:13 PM\nTo: \"'pvoss@example.net'\" <pvoss@example.net>\ncc: Odette Lamb <odette@travel.example.com>\nSubject: Last details of the gala\n\nHello Piet,\n";
        authored(inline, "cover these fees|Hal", "Maren Corwin|Hello Piet");
        let stacked = "Omar, I'd be happy to.\n\n\n\n\nOmar Lindgren@NWT\n09/21/2000 11:40 AM\nTo: Harold Corwin/Corp/Northwind@NORTHWIND\ncc: Bea K Strand/DAL/NWT@NWT\nSubject: Speaking request\n\nWould you speak at the Harbor Club?\n";
        authored(stacked, "happy to.", "Lindgren|09/21/2000|Harbor Club");
        let sent_by = "Thanks.\n\nHal Corwin@NORTHWIND\nSent by: Northwind Bulletins@NORTHWIND\n11/06/00 07:02 AM\n\t\t To: All Northwind Staff\nOffice Move\n";
        authored(sent_by, "Thanks.", "Bulletins|Office Move");
        let gap = "Count me in.\n\nMira J Tollan @ NORTHWIND_DEVELOPMENT   12/04/2000 09:37 AM\n\nTo: Harold Corwin/Corp/Northwind@NORTHWIND\ncc:  \nSubject: NWDC WINTER PARTY\n";
        authored(gap, "Count me in.", "Mira|WINTER");
        let wrapped = "Greta\n\n\"VANTERPOOL Sabine, OCF/ENV\" <Sabine.VANTERPOOL@example.org> on 05/17/2001 \n10:42:19 AM\nTo: \"'Harold.Corwin@example.com'\" <Harold.Corwin@example.com>\ncc:  \nSubject: RE: OCF roundtable\n";
        authored(wrapped, "Greta", "VANTERPOOL|10:42:19|roundtable");
        let to_cc = "Paul, Hal is not attending.  Thanks.\n\nGreta\n\n\nTo: Harold Corwin/Corp/Northwind@NORTHWIND, Omar Lindgren/Corp/Northwind@NORTHWIND, Tobias K \nVelde@Northwind\ncc: Ivy R Marsh/NA/Northwind@Northwind \nSubject: Coastal Trade Summit, Halifax, Canada\n\nThe next Coastal Trade Summit will be held October 4-6 in Halifax.\n";
        authored(to_cc, "not attending|Greta", "Lindgren|Halifax");
    }

    #[test]
    fn dash_signature() {
        let body = "See you at the meeting.\n\n-- \nAlden P. Marsh\nHolt Professor of Geology\nBrackwater University\n";
        authored(body, "See you at the meeting.", "Marsh|Geology");
        assert!(text_of(body, Signature).starts_with("-- \n"));
        // "-- Nils" is a sign-off, not a delimiter.
        assert_eq!(kinds("Best regards.\n\n-- Nils\n"), [Authored]);
        // A long tail after "--" is not a signature.
        assert_eq!(
            kinds(&format!("Intro.\n--\n{}", "real content line\n".repeat(20))),
            [Authored]
        );
    }

    #[test]
    fn signature_stops_at_quote() {
        let body = "Will do.\n-- \nJune Albright\nAssistant to the Chief Executive\n\n-----Original Message-----\nFrom: Hal\nPlease call.\n";
        assert_eq!(kinds(body), [Authored, Signature, Quoted]);
        let mobile = "On my way.\n\nSent from my BlackBerry Wireless Handheld\n\nOn Fri, Bob wrote:\n> where are you?\n";
        authored(mobile, "On my way.", "BlackBerry|where are you");
        assert!(text_of(mobile, Signature).contains("BlackBerry"));
    }

    #[test]
    fn company_banner_disclaimer() {
        let body = "Petra, thanks for the numbers.\n   555-014-2290 \n********************************************************************** \nThis message is the property of Northwind Corp. or one of its affiliates \nand may hold confidential and privileged content for the sole use of \nthe addressee (s) named above. Any copying, forwarding or other use \nby anyone else is strictly prohibited. If you are not the intended recipient \n(or are not authorized to receive it for them), please tell the sender \nor write to Northwind Corp. at mail.admin@northwind.example.com and \ndelete all copies of the message.\n**********************************************************************\n";
        authored(
            body,
            "thanks for the numbers|555-014-2290",
            "property of|****|delete all",
        );
        assert_eq!(kinds(body), [Authored, Disclaimer]);
    }

    #[test]
    fn plain_disclaimer_paragraph() {
        let body = "The filing is due Friday.\n\nThe information contained in this transmission may contain\nprivileged and confidential information and is intended only\nfor the use of the person(s) named above. If you are not the\nintended recipient, any review, dissemination, distribution or\nduplication of this communication is strictly prohibited.\n";
        authored(body, "due Friday", "privileged|strictly prohibited");
        // A single mention in normal prose stays authored.
        let prose =
            "If you are not the intended recipient of the gift basket, please tell Wanda.\n";
        assert_eq!(kinds(prose), [Authored]);
    }

    #[test]
    fn disclaimer_after_interleaved_quote() {
        let body = "Got it.\n\n> Otto\n>  \n**********************************************************************\nThis message is for the designated recipient only and may contain privileged information. If you have received it in error, please notify the sender immediately and delete the original.\n**********************************************************************\n";
        authored(body, "Got it.", "Otto|designated|****");
        assert_eq!(kinds(body), [Authored, Quoted, Disclaimer]);
    }

    #[test]
    fn crlf_body() {
        let body = "Sounds good, thanks.\r\n\r\n-----Original Message-----\r\nFrom: Bob\r\nSent: Monday\r\nTo: Hal\r\n\r\nLunch?\r\n";
        authored(body, "Sounds good, thanks.\r\n", "Original|Lunch?");
        assert_eq!(
            text_of("Done.\r\n-- \r\nHal\r\n", Signature),
            "-- \r\nHal\r\n"
        );
    }

    #[test]
    fn non_ascii() {
        let body = "Grüße aus München — das Angebot steht. 日本語テキスト\n\n-----Ursprüngliche Nachricht-----\nVon: Jörg\nKönnen Sie das prüfen? ✓\n";
        authored(
            body,
            "Grüße aus München|日本語テキスト",
            "Ursprüngliche|Jörg",
        );
        assert!(text_of(body, Quoted).contains("prüfen? ✓"));
    }

    /// Odd inputs, `|`-separated.
    const ODD: &str =
        "\n|\n\n\n|\r\n|\r| |a|>|--|-- \n|é|日本|🦀\n🦀|On\nwrote:|From:\nSent:\nTo:|\
        1/1/00 1:00 AM\nTo:|x on 1/1/2000 1:1|x on 12/31/2000 11:59:5 PM\nTo: y|x on 1/1/2000\n|\
        *************|**********\n**********|\n\n-----Original Message-----|Sent from my iPhone|\
        Begin forwarded message:|ü\r\n\r\n-- \r\nü|To:\ncc:\nSubject:|\n\nTo: a\ncc: b\nSubject: c";

    #[test]
    fn coverage_on_odd_inputs() {
        let (long, uni) = ("x".repeat(100_000), "é—€".repeat(20_000));
        let mut inputs: Vec<String> = ODD.split('|').map(String::from).collect();
        inputs.push(long);
        inputs.push(format!("{uni}\n> {uni}\n{uni}\n\n-- \n{uni}"));
        let pieces = [
            "a\n",
            "\n",
            "> q\n",
            "-- \n",
            "é ",
            "On x wrote:\n",
            "*********************\n",
            "If you are not the intended recipient, strictly prohibited. ",
            "From: a\nSent: b\nTo: c\n",
            "----- Forwarded by A/DAL/NWT on 1/2/2000 01:02 PM -----\n",
            "\r\n",
            "日本語",
            "N\n1/2/03 4:05 PM\n",
        ];
        let mut seed = 7u64;
        for _ in 0..500 {
            let mut s = String::new();
            for _ in 0..(seed % 14) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            inputs.push(s);
        }
        for input in &inputs {
            check(input);
        }
    }

    #[test]
    fn t5_enron_corpus_invariants() {
        let dir = std::path::Path::new("/work/shared/data/qa/t5-enron/emails");
        let Ok(entries) = std::fs::read_dir(dir) else {
            eprintln!("skipping: {} not present", dir.display());
            return;
        };
        let mut n = 0;
        for path in entries.flatten().map(|e| e.path()) {
            let raw =
                String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned();
            let norm = raw.replace("\r\n", "\n");
            let body = norm.split_once("\n\n").map_or("", |(_, b)| b);
            check(body);
            check(&body.replace('\n', "\r\n"));
            n += 1;
        }
        eprintln!("checked {n} corpus bodies");
    }
}
