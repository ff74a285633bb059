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
        assert_eq!(kinds("Please send me your user id's\nThanks\n"), [Authored]);
    }

    #[test]
    fn lotus_forward_with_note_above() {
        let body = "Please send me your user id's\n---------------------- Forwarded by Ina Rangel/HOU/ECT on 04/26/2001 05:27 PM \n---------------------------\nFrom: Amanda Huble/ENRON@enronXgate on 04/24/2001 09:05 AM\nTo: Ina Rangel/HOU/ECT@ECT\ncc:  \nSubject: User Ids\n\nDo you happen to have the user ids for the following people?\n\nThank you,\n\nAmanda K. Huble \nGas Fundamentals \n";
        authored(
            body,
            "Please send me your user id's",
            "Forwarded|Do you|Amanda",
        );
        assert!(text_of(body, Forwarded).starts_with("----------------------"));
    }

    #[test]
    fn lotus_forward_only() {
        let body = "---------------------- Forwarded by Mike Carson/Corp/Enron on 08/07/2000 \n03:23 PM ---------------------------\n\n\nMike Carson\n07/31/2000 04:22 PM\nTo: John Zufferli/HOU/ECT@ECT, Matt Lorenz/HOU/ECT@ECT\ncc:  \n\nSubject: Baby Party/Shower\n\nSome friends of my wife and I are throwing a little bash\n";
        assert_eq!(kinds(body), [Forwarded]);
    }

    #[test]
    fn other_forward_markers() {
        for marker in [
            "---------- Forwarded message ---------",
            "Begin forwarded message:",
            "-----Forwarded Message-----",
            "----- Forwarded by Rex Shelby/Enron Communications on 12/13/00 08:05 AM -----",
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
        let body = "Dear Pam:\n\nThank you for your e-mail of August 15th.\n\nSincerely,\n\nKen Lay\n\n\n\n -----Original Message-----\nFrom: \tPam.Allison@dynegy.com@ENRON\nSent:\tWednesday, August 15, 2001 5:39 PM\nTo:\tLay, Kenneth\nSubject:\tJeff's Leaving\n\nMr. Lay, the I am not writing this in malice\n\n-----Original Message-----\nFrom: Someone\nolder text\n";
        authored(
            body,
            "Thank you for your e-mail|Ken Lay",
            "Original|Pam.Allison|malice|older",
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
        let body = "I agree with Gary.\n\nOn Mon, 23 Oct 2000, Rob.Bradley@enron.com wrote:\n\n> I dropped \"own\" before \"business life\" to reduce wordiness.\n> Is this now okay?\n";
        authored(body, "I agree with Gary.", "wrote:|wordiness|okay?");
        let wrapped = "Yes.\n\nOn Mon, Oct 23, 2000 at 9:05 AM, Robert Bradley\n<rob.bradley@enron.com> wrote:\nWe are getting very close.\n";
        authored(wrapped, "Yes.", "Robert Bradley|wrote:|very close");
        // Without `>` lines the attribution still starts quoted history.
        let bare =
            "Fine by me.\n\nOn Tue, Jan 2, 2001 at 10:00, Jeff wrote:\nCan you review the deck?\n";
        authored(bare, "Fine by me.", "Jeff wrote:|review the deck");
    }

    #[test]
    fn plain_wrote_line() {
        // "Ken wrote:" introduces Ken's own text in Enron sent mail; no `>` follows.
        let own =
            "Ken wrote:\n\nSharon/Janelle -\n\nI would prefer that we just absorb these costs.\n";
        assert_eq!(kinds(own), [Authored]);
        let quoted =
            "Thanks Grace.\n\nRob.Bradley@enron.com wrote:\n\n> We are getting very close.\n";
        authored(quoted, "Thanks Grace.", "Rob.Bradley|very close");
    }

    #[test]
    fn interleaved_reply() {
        let body = "Hi Rob,\n\n> Can you make the 3pm call?\nYes, I will dial in.\n\n> Should we invite Gary?\n> He asked about it.\nNo, not this time.\n\nKen\n";
        let keep = "Hi Rob,|Yes, I will dial in.|No, not this time.|Ken";
        authored(body, keep, "3pm call|invite Gary|asked about");
        assert_eq!(kinds(body), [Authored, Quoted, Authored, Quoted, Authored]);
        assert_eq!(kinds("> line one\n> line two\n>\n> line three\n"), [Quoted]);
    }

    #[test]
    fn outlook_blocks() {
        let body = "Approved.\n\n________________________________\nFrom: Lynda Phinney\nSent: Tuesday, May 1, 2001 9:15 AM\nTo: Kenneth Lay\nSubject: Expense report\n\nPlease approve the attached report.\n";
        authored(body, "Approved.", "____|Lynda|approve the attached");
        let tight = "Approved.\nFrom: Lynda Phinney\nSent: Tuesday, May 1, 2001 9:15 AM\nTo: Kenneth Lay\nPlease approve.\n";
        authored(tight, "Approved.", "Lynda|Please approve");
        let enron = "Liz, see the note below.\n\nFrom: BROWN_MARY_JO@LILLY.COM\nDate: Mon, 23 Oct 2000 09:49:15 -0500\nTo: Kenneth Lay\nSubject: Debate\n\nThe debate was great.\n";
        authored(
            enron,
            "see the note below",
            "BROWN_MARY_JO|debate was great",
        );
    }

    #[test]
    fn memo_headers_at_top_stay_authored() {
        let memo = "To: All Employees\nFrom: Ken Lay\nDate: November 13, 2000\nSubject: United Way\ncc: HR\n\nThe campaign starts today.\n";
        assert_eq!(kinds(memo), [Authored]);
        let memo2 = "From:         Lou Cordia\nDate:         November 13, 2000\nRe:            President Bush or President Gore?\n\nText.\n";
        assert_eq!(kinds(memo2), [Authored]);
    }

    #[test]
    fn lotus_reply_headers() {
        let inline = "I would prefer that we just absorb these costs.\n\nKen \n\n\nSharon Lay <sharon@travelpark.com> on 01/12/2000 07:16:42 PM\nTo: \"'jhduncan@aol.com'\" <jhduncan@aol.com>\ncc: Janelle Daniel <janelle@travelpark.com>\nSubject: Final items of the MC\n\nHello John,\n";
        authored(inline, "absorb these costs|Ken", "Sharon Lay|Hello John");
        let stacked = "Jeff, I'd be glad to.\n\n\n\n\nJeffrey McClellan@ECT\n08/31/2000 10:55 AM\nTo: Kenneth Lay/Corp/Enron@ENRON\ncc: Tori L Wells/HOU/ECT@ECT\nSubject: Speaking invitation\n\nWould you speak at the Gathering Place?\n";
        authored(stacked, "glad to.", "McClellan|08/31/2000|Gathering Place");
        let sent_by = "Thanks.\n\nKen Lay@ENRON\nSent by: Enron Announcements@ENRON\n12/13/00 06:01 AM\n\t\t To: All Enron Worldwide\nSuccession Plan\n";
        authored(sent_by, "Thanks.", "Announcements|Succession");
        let gap = "Count me in.\n\nGayla E Seiter @ ENRON_DEVELOPMENT   11/15/2000 08:21 AM\n\nTo: Kenneth Lay/Corp/Enron@ENRON\ncc:  \nSubject: EECC HOLIDAY PARTY\n";
        authored(gap, "Count me in.", "Gayla|HOLIDAY");
        let wrapped = "Rosie\n\n\"PERSHING Jonathan, IEA/LTO\" <Jonathan.PERSHING@iea.org> on 04/24/2001 \n11:08:56 AM\nTo: \"'Kenneth.Lay@enron.com'\" <Kenneth.Lay@enron.com>\ncc:  \nSubject: RE: IEA ministerial\n";
        authored(wrapped, "Rosie", "PERSHING|11:08:56|ministerial");
        let to_cc = "Mike, Ken is not attending.  Thanks.\n\nRosie\n\n\nTo: Kenneth Lay/Corp/Enron@ENRON, Jeff Skilling/Corp/Enron@ENRON, Joseph W \nSutton@Enron\ncc: Steven J Kean/NA/Enron@Enron \nSubject: World Economic Forum, Melbourne, Australia\n\nThe next World Economic Forum will be held September 11-13 in Melbourne.\n";
        authored(to_cc, "not attending|Rosie", "Skilling|Melbourne");
    }

    #[test]
    fn dash_signature() {
        let body = "See you at the meeting.\n\n-- \nJames M. Tour\nChao Professor of Chemistry\nRice University\n";
        authored(body, "See you at the meeting.", "Tour|Chemistry");
        assert!(text_of(body, Signature).starts_with("-- \n"));
        // "-- Rex" is a sign-off, not a delimiter.
        assert_eq!(kinds("Best regards.\n\n-- Rex\n"), [Authored]);
        // A long tail after "--" is not a signature.
        assert_eq!(
            kinds(&format!("Intro.\n--\n{}", "real content line\n".repeat(20))),
            [Authored]
        );
    }

    #[test]
    fn signature_stops_at_quote() {
        let body = "Will do.\n-- \nMary Brown\nAssistant to the Chief Executive\n\n-----Original Message-----\nFrom: Ken\nPlease call.\n";
        assert_eq!(kinds(body), [Authored, Signature, Quoted]);
        let mobile = "On my way.\n\nSent from my BlackBerry Wireless Handheld\n\nOn Fri, Bob wrote:\n> where are you?\n";
        authored(mobile, "On my way.", "BlackBerry|where are you");
        assert!(text_of(mobile, Signature).contains("BlackBerry"));
    }

    #[test]
    fn enron_banner_disclaimer() {
        let body = "Lynda, thanks for the numbers.\n   713-215-3520 \n********************************************************************** \nThis e-mail is the property of Enron Corp. and/or its relevant affiliate \nand may contain confidential and privileged material for the sole use of \nthe intended recipient (s). Any review, use, distribution or disclosure \nby others is strictly prohibited. If you are not the intended recipient \n(or authorized to receive for the recipient), please contact the sender \nor reply to Enron Corp. at enron.messaging.administration@enron.com and \ndelete all copies of the message.\n**********************************************************************\n";
        authored(
            body,
            "thanks for the numbers|713-215-3520",
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
            "If you are not the intended recipient of the gift basket, please tell Sheri.\n";
        assert_eq!(kinds(prose), [Authored]);
    }

    #[test]
    fn disclaimer_after_interleaved_quote() {
        let body = "Got it.\n\n> Art\n>  \n**********************************************************************\nThis message is for the designated recipient only and may contain privileged information. If you have received it in error, please notify the sender immediately and delete the original.\n**********************************************************************\n";
        authored(body, "Got it.", "Art|designated|****");
        assert_eq!(kinds(body), [Authored, Quoted, Disclaimer]);
    }

    #[test]
    fn crlf_body() {
        let body = "Sounds good, thanks.\r\n\r\n-----Original Message-----\r\nFrom: Bob\r\nSent: Monday\r\nTo: Ken\r\n\r\nLunch?\r\n";
        authored(body, "Sounds good, thanks.\r\n", "Original|Lunch?");
        assert_eq!(
            text_of("Done.\r\n-- \r\nKen\r\n", Signature),
            "-- \r\nKen\r\n"
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
            "----- Forwarded by A/HOU/ECT on 1/2/2000 01:02 PM -----\n",
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
