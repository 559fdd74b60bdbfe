//! What an exercise needs you to read: `needs = ["1 › Three shapes, one
//! id", …]` in `exercises.toml` names lesson sections by part and heading,
//! a `##` section or a `###` sub-section, of the exercise's own part or an
//! earlier one. Loading resolves each name to its place in the lesson
//! ([`Need`]); an unknown name fails with `file:line`.

use super::lesson::{Block, Inline, Lesson, Section};

/// The separator between a need's part and its heading.
pub const SEPARATOR: &str = "›";

/// One section an exercise needs, resolved in its part's lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// The part whose lesson holds it.
    pub part: u8,
    /// The heading, as written after `›`.
    pub heading: String,
    /// Index of the `##` section (in [`Lesson::sections`]) it is, or holds it.
    pub section: usize,
    /// For a `###` sub-section: the index of its heading block in the
    /// section's blocks; `None` for a whole `##` section.
    pub sub: Option<usize>,
}

impl Need {
    /// `1 › Three shapes, one id`.
    pub fn name(&self) -> String {
        format!("{} {SEPARATOR} {}", self.part, self.heading)
    }

    /// The title of the `##` section it lies in, in `course` (the key a
    /// learner's progress records as seen); `None` when that part has no
    /// lesson.
    pub fn section_title<'a>(&self, course: &'a super::Course) -> Option<&'a str> {
        let lesson = course.part(self.part)?.lesson.as_ref()?;
        lesson.sections.get(self.section).map(|s| s.title.as_str())
    }

    /// The core blocks it covers in `section`: the whole section, or from
    /// its `###` heading to the next `###` heading (asides included; a
    /// caller that counts core text skips them).
    pub fn blocks<'a>(&self, section: &'a Section) -> &'a [Block] {
        let Some(start) = self.sub else { return &section.blocks };
        let start = start.min(section.blocks.len());
        let end = section.blocks[start + 1..]
            .iter()
            .position(|b| matches!(b, Block::Heading(_)))
            .map_or(section.blocks.len(), |i| start + 1 + i);
        &section.blocks[start..end]
    }

    /// Core words it covers (asides and fenced blocks left out; a whole
    /// section's heading counted).
    pub fn core_words(&self, lesson: &Lesson) -> usize {
        let Some(section) = lesson.sections.get(self.section) else {
            return 0;
        };
        let blocks = self.blocks(section);
        let words: usize = blocks
            .iter()
            .map(|b| match b {
                Block::Heading(i) | Block::Paragraph(i) | Block::Quote(i) => super::aside::words(i),
                Block::ListItem { content, .. } => super::aside::words(content),
                Block::Aside(_) | Block::Code(_) => 0,
            })
            .sum();
        words
            + if self.sub.is_none() {
                section.title.split_whitespace().count()
            } else {
                0
            }
    }
}

/// The plain text of a heading's inlines.
fn text(inlines: &[Inline]) -> String {
    inlines.iter().map(|i| i.text.as_str()).collect()
}

/// Splits `"1 › Heading"` into the part number and the heading.
pub fn split(name: &str) -> Result<(u8, &str), String> {
    let (part, heading) = name.split_once(SEPARATOR).ok_or_else(|| {
        format!("`{name}`: name a section as `PART {SEPARATOR} Heading`, e.g. `1 {SEPARATOR} Three shapes, one id`")
    })?;
    let part = part
        .trim()
        .parse::<u8>()
        .map_err(|_| format!("`{name}`: `{}` is not a part number", part.trim()))?;
    Ok((part, heading.trim()))
}

/// Resolves `heading` in `lesson` (part `part`): a `##` section whose title
/// it is, else the one `###` heading with that text, outside asides.
pub fn resolve(part: u8, heading: &str, lesson: &Lesson) -> Result<Need, String> {
    if let Some(section) = lesson.sections.iter().position(|s| s.title == heading) {
        return Ok(Need {
            part,
            heading: heading.to_string(),
            section,
            sub: None,
        });
    }
    let mut found = Vec::new();
    for (si, section) in lesson.sections.iter().enumerate() {
        for (bi, block) in section.blocks.iter().enumerate() {
            if let Block::Heading(inlines) = block
                && text(inlines) == heading
            {
                found.push((si, bi));
            }
        }
    }
    match found.as_slice() {
        [(section, sub)] => Ok(Need {
            part,
            heading: heading.to_string(),
            section: *section,
            sub: Some(*sub),
        }),
        [] => {
            let known: Vec<String> = lesson
                .sections
                .iter()
                .filter(|s| !s.title.is_empty())
                .map(|s| format!("`{}`", s.title))
                .collect();
            Err(format!(
                "Part {part} has no `##` or `###` section `{heading}`; its `##` sections are {}",
                known.join(", ")
            ))
        }
        _ => Err(format!(
            "Part {part} has {} `###` sections `{heading}`; rename one so the name is unique",
            found.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lesson::parse;

    fn lesson() -> Lesson {
        parse(
            std::path::Path::new("l.md"),
            "# T\n\n## One\n\nAlpha beta.\n\n### Sub a\n\nGamma delta epsilon.\n\n> [!deeper] Old\n> not core\n\n### Sub b\n\nZeta.\n\n## Two\n\nEta.\n",
        )
        .unwrap()
    }

    #[test]
    fn a_need_is_a_section_or_a_sub_section() {
        let l = lesson();
        let whole = resolve(1, "One", &l).unwrap();
        assert_eq!((whole.section, whole.sub), (0, None));
        // "One" 1 + "Alpha beta." 2 + "Sub a" 2 + 3 + "Sub b" 2 + 1; the aside not counted
        assert_eq!(whole.core_words(&l), 11);
        let sub = resolve(1, "Sub a", &l).unwrap();
        assert_eq!((sub.section, sub.sub), (0, Some(1)));
        assert_eq!(sub.core_words(&l), 5);
        assert_eq!(sub.name(), "1 › Sub a");
        let err = resolve(1, "Three", &l).unwrap_err();
        assert!(err.contains("no `##` or `###` section `Three`"), "{err}");
        assert_eq!(split("2 › Before initialize").unwrap(), (2, "Before initialize"));
        assert!(split("Before initialize").is_err());
        assert!(split("x › y").is_err());
    }
}
