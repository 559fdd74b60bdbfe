//! A lesson's record: read or not, the sections seen and the place left,
//! each section kept by its title. Files written before titles (sections
//! by index, the place as a fraction of a section) still load; what they
//! hold waits in the record until [`LessonProgress::upgrade`] turns it
//! into titles with the course's facts (progress does not know the course:
//! [`super::Shape::with_lessons`] carries them).

use serde::{Deserialize, Serialize};

/// One lesson.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "Stored", into = "Stored")]
pub struct LessonProgress {
    /// The lesson was read to its end: every section shown in the
    /// workbook ([`LessonProgress::seen`]), or printed whole.
    pub read: bool,
    /// The sections whose end has been on the workbook's screen, by title
    /// as written (the untitled introduction: `""`), in the order first
    /// seen.
    pub seen: Vec<String>,
    /// Where the reader was; `None` before the lesson was first opened.
    pub place: Option<LessonPlace>,
    /// What a file written before titles held, until [`Self::upgrade`].
    legacy: Option<Legacy>,
}

/// A place in a lesson, whatever the width and whichever asides are open:
/// the section, a block of it, a line of that block.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LessonPlace {
    /// The section's title as written (`""`: the untitled introduction).
    pub section: String,
    /// Index of the block among the section's blocks (an aside is one
    /// block, open or folded).
    pub block: usize,
    /// The line of that block the screen's top was on, counted at the
    /// width it was left at (the first block's from the section's heading;
    /// a line inside an open aside counts inside it, and goes to its head
    /// once it is folded).
    pub line: usize,
}

/// A record as files written before titles kept it.
#[derive(Debug, Clone, PartialEq, Default)]
struct Legacy {
    /// Indexes of the sections seen.
    seen: Vec<usize>,
    /// Index of the section last shown.
    section: usize,
    /// How far into it, in thousandths of its length.
    offset: u16,
}

impl LessonProgress {
    /// Whether the record still holds sections by index (a file written
    /// before titles), for [`Self::upgrade`].
    pub fn is_legacy(&self) -> bool {
        self.legacy.is_some()
    }

    /// Whether the reader has begun: a section seen, or the place past the
    /// start of a section.
    pub fn begun(&self) -> bool {
        !self.seen.is_empty()
            || self.place.as_ref().is_some_and(|p| p.block > 0 || p.line > 0)
            || self
                .legacy
                .as_ref()
                .is_some_and(|l| !l.seen.is_empty() || l.section > 0)
    }

    /// Whether section `title` has been seen.
    pub fn has_seen(&self, title: &str) -> bool {
        self.seen.iter().any(|t| t == title)
    }

    /// Records section `title` as seen (once).
    pub fn see(&mut self, title: &str) {
        if !self.has_seen(title) {
            self.seen.push(title.to_string());
        }
    }

    /// Turns sections kept by index into titles, given the lesson's
    /// sections now as (title as written, number of blocks), in order: a
    /// seen index becomes that section's title, the place becomes the
    /// block at the same fraction of that section's blocks (its first
    /// line). An index past the lesson's sections is dropped. Does nothing
    /// to a record kept by titles.
    pub fn upgrade(&mut self, sections: &[(String, usize)]) {
        let Some(legacy) = self.legacy.take() else { return };
        for index in legacy.seen {
            if let Some((title, _)) = sections.get(index) {
                self.see(title);
            }
        }
        if self.place.is_none()
            && let Some((title, blocks)) = sections.get(legacy.section)
        {
            let block = usize::from(legacy.offset.min(999)) * blocks / 1000;
            self.place = Some(LessonPlace {
                section: title.clone(),
                block,
                line: 0,
            });
        }
    }
}

/// The record as written: today's fields, and those of files written
/// before titles, read and kept (so an older record survives a save
/// before it is upgraded).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Stored {
    #[serde(default)]
    read: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seen: Vec<Key>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    place: Option<LessonPlace>,
    /// Before titles: the section last shown, by index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    section: Option<usize>,
    /// Before titles: thousandths of that section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offset: Option<u16>,
}

/// A section seen: by title, or (before titles) by index.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Key {
    Title(String),
    Index(usize),
}

impl From<Stored> for LessonProgress {
    fn from(stored: Stored) -> LessonProgress {
        let mut seen = Vec::new();
        let mut indexes = Vec::new();
        for key in stored.seen {
            match key {
                Key::Title(t) => seen.push(t),
                Key::Index(i) => indexes.push(i),
            }
        }
        let legacy = (!indexes.is_empty() || stored.section.is_some() || stored.offset.is_some()).then(|| Legacy {
            seen: indexes,
            section: stored.section.unwrap_or(0),
            offset: stored.offset.unwrap_or(0),
        });
        LessonProgress {
            read: stored.read,
            seen,
            place: stored.place,
            legacy,
        }
    }
}

impl From<LessonProgress> for Stored {
    fn from(lesson: LessonProgress) -> Stored {
        let mut seen: Vec<Key> = lesson.seen.into_iter().map(Key::Title).collect();
        let (mut section, mut offset) = (None, None);
        if let Some(legacy) = lesson.legacy {
            seen.extend(legacy.seen.into_iter().map(Key::Index));
            section = Some(legacy.section);
            offset = Some(legacy.offset);
        }
        Stored {
            read: lesson.read,
            seen,
            place: lesson.place,
            section,
            offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sections() -> Vec<(String, usize)> {
        vec![("".into(), 3), ("Requests".into(), 10), ("Errors".into(), 4)]
    }

    #[test]
    fn a_record_by_index_loads_survives_a_save_and_upgrades_to_titles() {
        let old = r#"{"read":false,"seen":[0,2,7],"section":1,"offset":450}"#;
        let mut lesson: LessonProgress = serde_json::from_str(old).unwrap();
        assert!(lesson.is_legacy() && lesson.begun());
        assert!(lesson.seen.is_empty() && lesson.place.is_none());
        // Saved before the upgrade, it keeps what it held.
        let again: LessonProgress = serde_json::from_str(&serde_json::to_string(&lesson).unwrap()).unwrap();
        assert_eq!(again, lesson);
        lesson.upgrade(&sections());
        assert!(!lesson.is_legacy());
        // Index 7 is past the lesson's three sections: dropped.
        assert_eq!(lesson.seen, ["", "Errors"]);
        // 450 thousandths of Requests' 10 blocks: block 4.
        assert_eq!(
            lesson.place,
            Some(LessonPlace {
                section: "Requests".into(),
                block: 4,
                line: 0
            })
        );
        let json = serde_json::to_string(&lesson).unwrap();
        assert_eq!(
            json,
            r#"{"read":false,"seen":["","Errors"],"place":{"section":"Requests","block":4,"line":0}}"#
        );
        lesson.upgrade(&[]);
        assert_eq!(
            serde_json::to_string(&lesson).unwrap(),
            json,
            "once upgraded, nothing more"
        );
    }

    #[test]
    fn the_place_of_an_old_file_without_an_offset_is_its_section_start() {
        let mut lesson: LessonProgress = serde_json::from_str(r#"{"read":true,"section":2}"#).unwrap();
        lesson.upgrade(&sections());
        assert!(lesson.read);
        assert_eq!(lesson.place.unwrap().section, "Errors");
        let mut gone: LessonProgress = serde_json::from_str(r#"{"section":9,"offset":999}"#).unwrap();
        gone.upgrade(&sections());
        assert_eq!(gone.place, None, "a section the lesson no longer has");
        assert!(!gone.is_legacy());
    }

    #[test]
    fn begun_means_a_section_seen_or_a_place_past_a_start() {
        let mut lesson = LessonProgress::default();
        assert!(!lesson.begun());
        lesson.place = Some(LessonPlace::default());
        assert!(!lesson.begun(), "opened at the top");
        lesson.place = Some(LessonPlace {
            line: 3,
            ..LessonPlace::default()
        });
        assert!(lesson.begun());
        let mut seen = LessonProgress::default();
        seen.see("Requests");
        seen.see("Requests");
        assert_eq!(seen.seen, ["Requests"]);
        assert!(seen.begun());
    }
}
