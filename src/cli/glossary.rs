//! `mcplings glossary [TERM]`: the course's terms in plain text, wrapped
//! to 80 columns. With a term, that entry in full; an unknown term is a
//! usage error (exit 2) that names the closest terms.

use super::EXIT_ERROR;
use super::report::wrap_plain;
use crate::content::Course;
use crate::content::glossary::Term;

/// Prints the glossary or one term of it.
pub fn run(course: &Course, term: Option<&str>) -> Result<u8, String> {
    let glossary = course
        .glossary
        .as_ref()
        .ok_or("this course has no glossary (lessons/glossary.toml)")?;
    let Some(query) = term else {
        println!(
            "Glossary · {} terms   (mcplings glossary TERM for one in full)",
            glossary.terms.len()
        );
        for t in &glossary.terms {
            println!();
            print_lines(&t.term, &t.definition, "  ");
        }
        return Ok(0);
    };
    match glossary.find(query) {
        Some(t) => {
            print_term(course, t);
            Ok(0)
        }
        None => {
            let near: Vec<&str> = glossary.closest(query, 3).iter().map(|t| t.term.as_str()).collect();
            eprintln!(
                "mcplings: the glossary has no term `{}`. Closest: {}.",
                query.trim(),
                near.join(", ")
            );
            Ok(EXIT_ERROR)
        }
    }
}

fn print_lines(head: &str, text: &str, indent: &str) {
    println!("{head}");
    for l in wrap_plain(text, 80 - indent.len()) {
        println!("{indent}{l}");
    }
}

fn print_term(course: &Course, t: &Term) {
    let title = course.part(t.part).map_or(String::new(), |p| format!(" · {}", p.title));
    print_lines(&t.term, &t.definition, "  ");
    if !t.variants.is_empty() {
        print_lines("Also written", &t.variants.join(", "), "  ");
    }
    print_lines("Taught in", &format!("Part {}{title} › {}", t.part, t.place()), "  ");
    print_lines("Spec", &t.spec, "  ");
}
