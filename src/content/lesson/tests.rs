//! Tests of the lesson parser: sections, blocks, stories and the errors
//! it reports, each with its line.

use super::*;

fn lesson(src: &str) -> Result<Lesson, Vec<String>> {
    parse(Path::new("l.md"), src).map_err(|e| e.iter().map(ToString::to_string).collect())
}

#[test]
fn sections_paragraphs_lists_and_frames() {
    let l = lesson(
        "# Part 1 · T\n\nIntro `code` and **bold**.\n\n## One\n\n- a\n- b\n  1. x\n\n```json 2025-11-25\n{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n{\"a\":\n 1}\n```\n\n## Two\n\ntext\n",
    )
    .unwrap();
    assert_eq!(l.title, "Part 1 · T");
    assert_eq!(l.sections.len(), 3);
    assert_eq!(l.sections[1].title, "One");
    let Block::Code(code) = &l.sections[1].blocks[3] else {
        panic!("{:?}", l.sections[1].blocks)
    };
    assert_eq!(code.revision.as_deref(), Some("2025-11-25"));
    let values = code.json_values().unwrap();
    assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), vec![12, 13]);
    assert!(matches!(&l.sections[1].blocks[2], Block::ListItem { depth: 1, marker, .. } if marker == "1."));
}

#[test]
fn each_numbered_list_counts_from_its_own_start() {
    let l = lesson("# T\n\n## S\n\n1. a\n2. b\n\ntext\n\n1. c\n2. d\n   - e\n3. f\n").unwrap();
    let markers: Vec<&str> = l.sections[0]
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ListItem { marker, .. } => Some(marker.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(markers, ["1.", "2.", "1.", "2.", "-", "3."]);
}

#[test]
fn errors_name_the_line() {
    let errs = lesson(
        "# T\n\n## S\n\n```json\n{}\n```\n\n```json 2025-11-25\n{\"a\": }\n```\n\n<b>x</b>\n\n```text\nnever closed\n",
    )
    .unwrap_err();
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(
        errs[0].starts_with("l.md:5: a json block must name the revision"),
        "{errs:?}"
    );
    assert!(errs[1].starts_with("l.md:10: invalid JSON"), "{errs:?}");
    assert!(errs[2].starts_with("l.md:13: HTML"), "{errs:?}");
    assert!(
        errs[3].starts_with("l.md:15: this code block is never closed"),
        "{errs:?}"
    );
}

fn texts(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(i) | Block::Quote(i) | Block::Heading(i) | Block::ListItem { content: i, .. } => {
                i.iter().map(|i| i.text.as_str()).collect()
            }
            Block::Code(c) => format!("code {}", c.lang),
            Block::Aside(a) => format!("aside {}", a.summary()),
        })
        .collect()
}

#[test]
fn a_story_is_an_aside() {
    let l = lesson("# T\n\n## S\n\n> [!story] modelcontextprotocol/python-sdk#2057\n> It broke.\n>\n> Then it was fixed.\n\n> plain quote\n").unwrap();
    let Block::Aside(story) = &l.sections[0].blocks[0] else {
        panic!("{:?}", l.sections[0].blocks)
    };
    assert_eq!(story.kind, AsideKind::Story);
    assert_eq!(story.reference.as_deref(), Some("modelcontextprotocol/python-sdk#2057"));
    assert!(story.label.is_empty());
    assert_eq!((story.line, story.end_line), (5, 8));
    assert_eq!(texts(&story.blocks), ["It broke.", "Then it was fixed."]);
    assert!(matches!(&l.sections[0].blocks[1], Block::Quote(_)));
    let errs = lesson("# T\n\n## S\n\n> [!story] python-sdk 2057\n> It broke.\n").unwrap_err();
    assert!(errs[0].starts_with("l.md:5: a story opens with"), "{errs:?}");
}

#[test]
fn a_story_may_carry_a_label() {
    let l = lesson("# T\n\n## S\n\n> [!story] a/b#12 The `null` id\n>\n> It broke.\n").unwrap();
    let Block::Aside(story) = &l.sections[0].blocks[0] else {
        panic!()
    };
    assert_eq!(story.reference.as_deref(), Some("a/b#12"));
    assert_eq!(story.label_text(), "The null id");
    assert!(story.label.iter().any(|i| i.style.code && i.text == "null"));
    assert_eq!(story.summary(), "The null id (a/b#12)");
}

#[test]
fn an_aside_holds_any_blocks() {
    let src = "# T\n\n## S\n\nCore.\n\n> [!wild] How **five** SDKs answer\n>\n> First.\n>\n> - one\n> - two\n>\n> After the list.\n>\n> ```json 2025-11-25\n> {\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n> ```\n>\n> ```text\n> a transcript\n> ```\n>\n> ### A sub-heading\n>\n> > quoted\n\nCore again.\n";
    let l = lesson(src).unwrap();
    let blocks = &l.sections[0].blocks;
    assert_eq!(texts(blocks), ["Core.", "aside How five SDKs answer", "Core again."]);
    let Block::Aside(wild) = &blocks[1] else { panic!() };
    assert_eq!(wild.kind, AsideKind::Wild);
    assert_eq!(wild.reference, None);
    assert_eq!(
        texts(&wild.blocks),
        [
            "First.",
            "one",
            "two",
            "After the list.",
            "code json",
            "code text",
            "A sub-heading",
            "quoted"
        ]
    );
    let Block::Code(frame) = &wild.blocks[4] else { panic!() };
    assert_eq!(frame.revision.as_deref(), Some("2025-11-25"));
    assert_eq!(frame.line, 16);
    assert_eq!(frame.json_values().unwrap()[0].0, 17);
    assert!(matches!(&wild.blocks[7], Block::Quote(_)));
    assert_eq!((wild.line, wild.end_line), (7, 26));
}

#[test]
fn the_marker_line_alone_is_the_label() {
    let l = lesson("# T\n\n## S\n\n> [!deeper] Older revisions\n> 2025-06-18 said otherwise.\n").unwrap();
    let Block::Aside(a) = &l.sections[0].blocks[0] else {
        panic!()
    };
    assert_eq!(a.label_text(), "Older revisions");
    assert_eq!(texts(&a.blocks), ["2025-06-18 said otherwise."]);
}

#[test]
fn aside_errors_name_the_line() {
    let errs = lesson("# T\n\n## S\n\n> [!note] Something\n> text\n\n> [!wild]\n> text\n\n> [!deeper] Only a label\n\n> [!deeper] Sections\n>\n> ## Not here\n>\n> text\n").unwrap_err();
    assert!(
        errs[0].starts_with("l.md:5: unknown aside kind `note`: use one of story, wild, deeper"),
        "{errs:?}"
    );
    assert!(errs[1].starts_with("l.md:8: a `wild` aside needs a label"), "{errs:?}");
    assert!(
        errs[2].starts_with("l.md:11: an aside holds at least one paragraph"),
        "{errs:?}"
    );
    assert!(
        errs[3].starts_with("l.md:15: a `##` section heading cannot stand inside"),
        "{errs:?}"
    );
    assert_eq!(errs.len(), 4, "{errs:?}");
    let errs = lesson("# T\n\n## S\n\n> [!wild] A frame\n>\n> ```json 2025-11-25\n> {\"a\": }\n> ```\n").unwrap_err();
    assert!(errs[0].starts_with("l.md:8: invalid JSON"), "{errs:?}");
    let errs = lesson("# T\n\n## S\n\n> [!wild] A frame\n>\n> ```text\n> never closed\n").unwrap_err();
    assert!(
        errs[0].starts_with("l.md:7: this code block is never closed"),
        "{errs:?}"
    );
}

#[test]
fn missing_title_and_sections() {
    let errs = lesson("just text\n").unwrap_err();
    assert!(errs[0].contains("l.md:1: a lesson starts with its title"));
    assert!(errs[1].contains("at least one `##` section"));
}
