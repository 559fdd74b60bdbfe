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

#[test]
fn a_story_is_a_block_of_its_own() {
    let l = lesson("# T\n\n## S\n\n> [!story] modelcontextprotocol/python-sdk#2057\n> It broke.\n>\n> Then it was fixed.\n\n> plain quote\n").unwrap();
    let Block::Story(story) = &l.sections[0].blocks[0] else {
        panic!("{:?}", l.sections[0].blocks)
    };
    assert_eq!(story.reference, "modelcontextprotocol/python-sdk#2057");
    assert_eq!(story.line, 5);
    let texts: Vec<String> = story
        .paragraphs
        .iter()
        .map(|p| p.iter().map(|i| i.text.as_str()).collect())
        .collect();
    assert_eq!(texts, ["It broke.", "Then it was fixed."]);
    assert!(matches!(&l.sections[0].blocks[1], Block::Quote(_)));
    let errs = lesson("# T\n\n## S\n\n> [!story] python-sdk 2057\n> It broke.\n").unwrap_err();
    assert!(errs[0].starts_with("l.md:5: a story opens with"), "{errs:?}");
}

#[test]
fn missing_title_and_sections() {
    let errs = lesson("just text\n").unwrap_err();
    assert!(errs[0].contains("l.md:1: a lesson starts with its title"));
    assert!(errs[1].contains("at least one `##` section"));
}
