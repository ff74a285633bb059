//! Tests of the parent module, kept apart so the module reads in one sitting.

use super::html_to_text as h;

fn check(cases: &[(&str, &str)]) {
    for (input, want) in cases {
        assert_eq!(h(input), *want, "input: {input:?}");
    }
}

#[test]
fn links_kept() {
    check(&[
        (
            r#"<p>See <a href="https://x.org/a?b=1&amp;c=2">docs</a>.</p>"#,
            "See docs <https://x.org/a?b=1&c=2>.",
        ),
        (
            "<a href='https://x.org/'>https://x.org</a>",
            "https://x.org",
        ),
        (
            "go <a href=https://x.org/p></a> now",
            "go https://x.org/p now",
        ),
        (r#"<a href="mailto:bob@x.org">bob@x.org</a>"#, "bob@x.org"),
        (
            r#"<a href="MAILTO:bob@x.org?subject=hi">Write Bob</a>"#,
            "Write Bob <bob@x.org>",
        ),
        (
            r##"<a href="javascript:void(0)">Click</a> <a href="#top">Top</a>"##,
            "Click Top",
        ),
        (r#"<A HREF="https://x.org">www.x.org</A>"#, "www.x.org"),
        ("<a href=\" https://a.b/\n\tc \">x</a>", "x <https://a.b/c>"),
        (
            r#"<a href="https://x.org/i"><img src="l.png" alt="Logo"></a>"#,
            "[image: Logo] <https://x.org/i>",
        ),
        (
            r#"<img src="t.gif" alt=""><img alt='A &amp; B'>"#,
            "[image: A & B]",
        ),
    ]);
}

#[test]
fn entities() {
    check(&[
        (
            "a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&#39; &#x27;f&#X27;",
            "a & b <c> \"d\" 'e' 'f'",
        ),
        (
            "&copy; caf&eacute; &mdash; it&rsquo;s &ldquo;x&rdquo;&hellip; 5&euro;",
            "© café — it’s “x”… 5€",
        ),
        (
            "x&nbsp;&nbsp;y &unknown; &amp &#0; &#x110000; &#150; &; &#;",
            "x y &unknown; & \u{fffd} \u{fffd} – &; &#;",
        ),
        ("a&zwnj;b&#8203;c", "abc"),
        ("&lt;b&gt;not a tag&lt;/b&gt;", "<b>not a tag</b>"),
    ]);
}

#[test]
fn blocks_and_whitespace() {
    check(&[
        ("<p>One\n   two</p><p>Three</p>", "One two\n\nThree"),
        (
            "<div>a</div><div>b</div>c<br>d<br/><br />e<BR>",
            "a\nb\nc\nd\n\ne",
        ),
        ("<h1>Title</h1>text<hr>more", "Title\n\ntext\n\nmore"),
        ("<p></p><p></p><p>x</p><br><br><br><p>y</p>", "x\n\ny"),
        ("<pre>  a  b\n    c\n</pre>after", "a  b\n    c\n\nafter"),
    ]);
}

#[test]
fn nested_lists_and_tables() {
    check(&[
        (
            "<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>",
            "- a\n  - b\n  - c\n- d",
        ),
        (
            "Intro:<ol><li><p>one</p></li><li>two</ol>End",
            "Intro:\n\n- one\n- two\n\nEnd",
        ),
        (
            "<table><tr><th>Name</th><th>Qty</th><tr><td>Apple</td><td>3</td></table>after",
            "Name Qty\nApple 3\n\nafter",
        ),
    ]);
}

#[test]
fn blockquote_quoted() {
    let gmail = "<div>Sure.</div><div><br></div><div class=gmail_quote>On Mon Bob &lt;<a \
                 href=\"mailto:b@x.org\">b@x.org</a>&gt; wrote:<br><blockquote class=gmail_quote>\
                 <p>Hi<br>there</p><blockquote>older</blockquote></blockquote></div><p>Bye</p>";
    check(&[
        (
            gmail,
            "Sure.\n\nOn Mon Bob <b@x.org> wrote:\n\n> Hi\n> there\n>\n> > older\n\nBye",
        ),
        (
            "<blockquote>x</blockquote></blockquote></blockquote>y",
            "> x\n\ny",
        ),
    ]);
}

#[test]
fn dropped_parts() {
    let page = "<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style>\
                <meta charset=utf-8></head><body><!-- c <p>no</p> --><script>if (a<b) x()</script>\
                <SCRIPT type='x'>y</SCRIPT >Hello<style>q</style><!--[if mso]>m<![endif]--></body></html>";
    check(&[
        (page, "Hello"),
        ("a<!-- unterminated", "a"),
        ("a<script>never closed", "a"),
        ("<title>unclosed title<p>body", "unclosed title\n\nbody"),
    ]);
}

#[test]
fn malformed() {
    check(&[
        ("a < b and c<3 > d", "a < b and c<3 > d"),
        ("<p>open <b>bold <i>it</p>next", "open bold it\n\nnext"),
        (r#"<a href="x.org>broken</a> rest"#, "broken <x.org> rest"),
        ("<div class=x id='y' data-z=\"w\" hidden>t</div>", "t"),
        ("text <span class=\"x", "text <span class=\"x"),
        ("x</>y</ 3>z", "xyz"),
        ("<", "<"),
        ("</", "</"),
        ("<a", "<a"),
        ("", ""),
        (
            "<a href='https://x.org'>one<a href='https://y.org'>two</a>",
            "one <https://x.org>two <https://y.org>",
        ),
    ]);
    for s in [
        "<",
        "<a ",
        "<a b=",
        "<a b='",
        "&",
        "&#",
        "&#x",
        "<!",
        "<!-",
        "</a",
        "<p/",
        "\u{0}<\u{7f}>",
    ] {
        let _ = h(&s.repeat(1000));
    }
}

#[test]
fn non_ascii() {
    check(&[
        (
            "<p>Grüße, 日本語 😀</p><p lang=ru>Привет</p>",
            "Grüße, 日本語 😀\n\nПривет",
        ),
        ("<a href='https://x.org/ü'>ü</a>", "ü <https://x.org/ü>"),
        ("é<é>è</é>", "é<é>è"),
    ]);
}

#[test]
fn big_input_runs() {
    let unit =
        "<div><p>Hello &amp; <a href=\"https://example.com/x\">world</a> &eacute;t&eacute;</p>\
                <blockquote>q<br></blockquote><ul><li>i</li></ul><!-- c --></div>\n";
    let big = unit.repeat(1_000_000 / unit.len() + 1);
    let start = std::time::Instant::now();
    let out = h(&big);
    assert!(out.contains("Hello & world <https://example.com/x> été"));
    assert!(out.contains("> q"));
    let deep = format!(
        "{}{}",
        "<blockquote>".repeat(1 << 16),
        "x<br>".repeat(1 << 16)
    );
    assert!(h(&deep).len() < 4 << 20);
    let bad = [
        "<".repeat(1 << 20),
        "<a b='".repeat(1 << 17),
        "&#".repeat(1 << 19),
        "<!--".repeat(1 << 18),
    ];
    for b in bad {
        let _ = h(&b);
    }
    let alphabet = [
        '<', '>', '/', '=', '\'', '"', '&', ' ', 'a', 'p', '!', '-', '#', ';', '\n', 'é', '中',
        '😀',
    ];
    let ugly: String = (0..1 << 20)
        .map(|i| alphabet[(i * 7 + i / 13 + i / 1001) % alphabet.len()])
        .collect();
    let _ = h(&ugly);
    assert!(
        start.elapsed().as_secs() < 20,
        "too slow: {:?}",
        start.elapsed()
    );
}
