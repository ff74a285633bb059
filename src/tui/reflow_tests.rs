use super::*;
use ratatui::style::Style;

fn lines(text: &str, width: u16) -> Vec<String> {
    wrap_mail(&[Run::new(text, Style::default())], width)
        .lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// A paragraph wrapped at 72 columns by the sender's program.
const HARD_WRAPPED: &str = "The orchard crew will start on the north fence on Monday, weather\n\
permitting, and expects to finish the gate posts by Wednesday afternoon\n\
so that the sheep can be moved across before the weekend market opens.\n";

#[test]
fn a_hard_wrapped_paragraph_fills_the_pane_evenly() {
    let shown = lines(HARD_WRAPPED, 60);
    // Reflowed: every line but the last is well filled, none alternates long/short.
    let (last, rest) = shown.split_last().expect("lines");
    assert!(rest.iter().all(|l| l.len() >= 45), "{shown:#?}");
    assert!(!last.is_empty());
    let joined = shown.join(" ");
    assert_eq!(
        joined.split_whitespace().collect::<Vec<_>>(),
        HARD_WRAPPED.split_whitespace().collect::<Vec<_>>()
    );
    // Wider than the sender's column: one long line per paragraph.
    assert_eq!(lines(HARD_WRAPPED, 250).len(), 1);
}

#[test]
fn wrapped_quote_lines_keep_their_marker() {
    let quoted = "> The orchard crew will start on the north fence on Monday, weather\n\
> permitting, and expects to finish the gate posts by Wednesday.\n\
>> An older remark that is long enough to need a second line at forty columns.\n";
    let shown = lines(quoted, 40);
    assert!(shown.len() >= 5, "{shown:#?}");
    for l in &shown {
        assert!(l.starts_with('>'), "a line lost its marker: {shown:#?}");
    }
    let deeper: Vec<&String> = shown.iter().filter(|l| l.starts_with(">>")).collect();
    assert!(
        deeper.len() >= 2,
        "the deeper quote wraps with its own marker: {shown:#?}"
    );
    // The two depths are never joined.
    assert!(shown
        .iter()
        .all(|l| !(l.starts_with("> ") && l.contains("older"))));
}

#[test]
fn figures_lists_headers_and_closings_keep_their_lines() {
    let text = "Land And Soft Costs - Initial Draw        $ 1,608,683.05\n\
Galaxy - Draw # 1                                $   250,000.00\n\
\n\
Here is what we agreed on at the meeting with the county on Tuesday:\n\
- the culvert is replaced before the rains start in October\n\
- the road stays open to the school buses during the works\n\
\n\
From: Ines Moreau on 03/02/2001 10:32 AM with the revised schedule\n\
To: the whole planning group including the two consultants\n\
\n\
I will send the revised drawings to everyone on Thursday morning.\n\
Thanks,\n\
Ines\n";
    let shown = lines(text, 200);
    for kept in [
        "Galaxy - Draw # 1",
        "- the culvert",
        "- the road",
        "To: the whole planning group",
        "Thanks,",
        "Ines",
    ] {
        assert!(
            shown.iter().any(|l| l.starts_with(kept)),
            "{kept:?} is not a line of its own: {shown:#?}"
        );
    }
    // At a width the figures do not fit, they wrap without losing a character.
    let narrow = lines(text, 30);
    let all: String = narrow.concat();
    for figure in ["1,608,683.05", "250,000.00"] {
        assert!(all.replace(' ', "").contains(figure), "{narrow:#?}");
    }
}

#[test]
fn short_lines_are_not_joined() {
    let text = "Hi Sam,\nThe key is under the mat.\nSee you soon\n";
    assert_eq!(
        lines(text, 80),
        vec!["Hi Sam,", "The key is under the mat.", "See you soon"]
    );
}

#[test]
fn quote_markers_are_read_as_senders_write_them() {
    assert_eq!(quote_prefix("> text"), "> ");
    assert_eq!(quote_prefix(">> text"), ">> ");
    assert_eq!(quote_prefix("> > text"), "> > ");
    assert_eq!(quote_prefix(" > text"), " > ");
    assert_eq!(quote_prefix(">text"), ">");
    assert_eq!(quote_prefix("a > b"), "");
    assert_eq!(quote_prefix("  > two spaces is an indent"), "");
}

#[test]
fn a_tagged_quote_is_found_after_reflow() {
    let runs = [
        Run::new(
            "The orchard crew will start on the north fence on Monday, weather\npermitting, and ",
            Style::default(),
        ),
        Run::tagged("expects to finish the gate posts", Style::default(), 7),
        Run::new(" by Wednesday.\n", Style::default()),
    ];
    let w = wrap_mail(&runs, 50);
    let at = w.first_line_of(7).expect("the tag is placed");
    let line: String = w.lines[at]
        .spans
        .iter()
        .map(|s| s.content.as_ref())
        .collect();
    assert!(line.contains("expects"), "{line:?}");
}

#[test]
fn two_spaces_after_a_sentence_do_not_stop_a_paragraph_reflowing() {
    let typed = "Please send me the seed order you drafted for the spring beds.  I\n\
was going to copy it out again, but it is quicker to have yours back and\n\
fill in the new quantities.\n";
    let shown = lines(typed, 50);
    let (last, rest) = shown.split_last().expect("lines");
    assert!(rest.iter().all(|l| l.len() >= 38), "{shown:#?}");
    assert!(!last.is_empty());
    // Columns lined up with runs of spaces keep their lines.
    let table = "Seed potatoes    12 sacks    $ 84.00\nOnion sets         4 nets    $ 18.50\n";
    assert_eq!(
        lines(table, 80),
        [
            "Seed potatoes    12 sacks    $ 84.00",
            "Onion sets         4 nets    $ 18.50"
        ]
    );
}

/// A summary of sums indented with tabs, as a spreadsheet pastes it.
const TABBED_SUMS: &str = "The totals so far:\n\n\
\t\t\t\tSeed and soil\t\t-\tFirst order\t$\t  1,204,310.75\n\
\t\t\t\tFencing\t\t\t-\tPart # 1\t$\t     98,000.00\n\
\n\
\t\t\t\t\tPaid so far\t\t\t\t$\t  1,302,310.75\n";

#[test]
fn figures_too_wide_for_the_pane_lose_their_shared_indent_then_their_gaps() {
    // Wide enough once the block's shared indent goes: the columns stay aligned.
    let shown = lines(TABBED_SUMS, 80);
    let dollar_at: Vec<usize> = shown.iter().filter_map(|l| l.find('$')).collect();
    assert_eq!(dollar_at.len(), 3, "{shown:#?}");
    assert!(dollar_at.iter().all(|c| *c == dollar_at[0]), "{shown:#?}");
    assert!(
        shown.iter().any(|l| l.starts_with("Seed and soil")),
        "{shown:#?}"
    );
    // Narrower: each figure line still fits on one line, its gaps narrowed.
    let narrow = lines(TABBED_SUMS, 50);
    for wanted in [
        "Seed and soil  -  First order  $  1,204,310.75",
        "Fencing  -  Part # 1  $  98,000.00",
        "  Paid so far  $  1,302,310.75",
    ] {
        assert!(
            narrow.iter().any(|l| l == wanted),
            "{wanted:?} in {narrow:#?}"
        );
    }
    // Where the pane is wide enough, nothing moves.
    let wide = lines(TABBED_SUMS, 120);
    let indent = " ".repeat(32);
    assert!(
        wide.iter().any(|l| l.starts_with(&format!("{indent}Seed"))),
        "{wide:#?}"
    );
}

#[test]
fn a_list_item_wrapped_onto_indented_lines_is_one_item() {
    let list = "- Planting: the north beds on March 3, the south beds a week later,\n\
  then the greenhouse trays once the frost has passed for good\n\
- Watering: twice a week\n\
12. Harvest: the first beans in June, the squash from late August onwards,\n\
    weather permitting\n";
    let shown = lines(list, 200);
    assert_eq!(
        shown,
        [
            "- Planting: the north beds on March 3, the south beds a week later, then the greenhouse trays once the frost has passed for good",
            "- Watering: twice a week",
            "12. Harvest: the first beans in June, the squash from late August onwards, weather permitting",
        ]
    );
    // An indented line under a short item is a line of its own.
    let short = "- Tools\n  spades and forks\n";
    assert_eq!(lines(short, 200), ["- Tools", "  spades and forks"]);
}
