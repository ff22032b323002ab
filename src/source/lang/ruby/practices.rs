//! Ruby's tooling conventions, read as text (never run): the Ruby version (`.ruby-version`, the
//! Gemfile's `ruby` line, the gemspec's `required_ruby_version`, RuboCop's `TargetRubyVersion`), RuboCop (`.rubocop.yml`: the
//! plugins it requires, whether every cop is off by default), what runs the tests (RSpec's
//! `.rspec` or `spec/`; minitest through Rake's test task), Bundler (`Gemfile`) and the Rakefile's
//! tasks.

use crate::source::lang::tooling::{push, Practice, Sources};

/// Rake tasks listed at most.
const MAX_TASKS: usize = 12;

/// Ruby's practices.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    language(sources, found);
    rubocop(sources, found);
    tests(sources, found);
    rake(sources, found);
}

/// The gemspecs at the project's root, by name.
fn gemspecs(sources: &Sources) -> Vec<String> {
    let mut names = sources.file_names("");
    names.retain(|name| name.ends_with(".gemspec"));
    names
}

/// The Ruby version the project asks for.
fn language(sources: &Sources, found: &mut Vec<Practice>) {
    if let Some(version) = sources.text(".ruby-version") {
        let version = version.trim();
        if !version.is_empty() && version.len() < 40 {
            push(
                found,
                "language",
                format!("Ruby {version} (`.ruby-version`)."),
                ".ruby-version",
            );
            return;
        }
    }
    // Bundler's `ruby "3.2.2"` line in the Gemfile.
    if let Some(gemfile) = sources.text("Gemfile") {
        let version = gemfile.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("ruby ")?.trim();
            let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
            let inner = rest[1..].split(quote).next()?;
            (!inner.is_empty() && inner.len() < 40).then(|| inner.to_string())
        });
        if let Some(version) = version {
            push(
                found,
                "language",
                format!("Ruby {version} (`Gemfile`)."),
                "Gemfile",
            );
            return;
        }
    }
    for gemspec in gemspecs(sources) {
        let Some(text) = sources.text(&gemspec) else {
            continue;
        };
        if let Some(version) = assigned_string(&text, "required_ruby_version") {
            push(
                found,
                "language",
                format!("Ruby {version} (`required_ruby_version`)."),
                &gemspec,
            );
            return;
        }
    }
}

/// The string assigned to `key` (`s.required_ruby_version = '>= 2.7.8'`).
fn assigned_string(text: &str, key: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains(key))?;
    let value = line.split_once('=')?.1.trim();
    let quote = value.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = value[1..].split(quote).next()?;
    (!inner.is_empty() && inner.len() < 40).then(|| inner.to_string())
}

/// RuboCop's configuration: its target Ruby, plugins, and whether cops are opt-in.
fn rubocop(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text(".rubocop.yml") else {
        return;
    };
    let mut details: Vec<String> = Vec::new();
    let mut plugins: Vec<String> = Vec::new();
    let mut in_require = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
        if !line.starts_with(' ') && !line.starts_with('-') {
            in_require = matches!(trimmed, "require:" | "plugins:");
            continue;
        }
        if in_require {
            if let Some(plugin) = trimmed.strip_prefix("- ") {
                plugins.push(format!("`{}`", plugin.trim_matches(['\'', '"'])));
            }
        }
        if let Some(version) = trimmed.strip_prefix("TargetRubyVersion:") {
            details.push(format!("target Ruby {}", version.trim()));
        }
        if trimmed == "DisabledByDefault: true" {
            details.push("only the cops it enables".to_string());
        }
    }
    if !plugins.is_empty() {
        details.push(format!("with {}", plugins.join(", ")));
    }
    let practice = match details.is_empty() {
        true => {
            "RuboCop checks the Ruby style (`.rubocop.yml`; `bundle exec rubocop`).".to_string()
        }
        false => format!(
            "RuboCop checks the Ruby style (`.rubocop.yml`: {}; `bundle exec rubocop`).",
            details.join(", ")
        ),
    };
    push(found, "style", practice, ".rubocop.yml");
}

/// What runs the tests: RSpec (`.rspec`, `spec/spec_helper.rb`), Rake's test task (minitest).
fn tests(sources: &Sources, found: &mut Vec<Practice>) {
    let bundle = match sources.is_file("Gemfile") {
        true => "bundle exec ",
        false => "",
    };
    if sources.is_file(".rspec") || sources.is_file("spec/spec_helper.rb") {
        let source = match sources.is_file(".rspec") {
            true => ".rspec",
            false => "spec/spec_helper.rb",
        };
        push(
            found,
            "tests",
            format!("`{bundle}rspec` runs the RSpec specs (`spec/**/*_spec.rb`)."),
            source,
        );
    }
    let Some(rakefile) = sources.text("Rakefile") else {
        return;
    };
    if rakefile.contains("TestTask") {
        push(
            found,
            "tests",
            format!("`{bundle}rake test` runs the minitest tests (`test/`)."),
            "Rakefile",
        );
    }
}

/// The Rakefile's top-level tasks (`task :name`, `task name: deps`), by name.
fn rake(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text("Rakefile") else {
        return;
    };
    let mut tasks: Vec<String> = Vec::new();
    for line in text.lines() {
        // `Rake::TestTask.new(:test)`, `RSpec::Core::RakeTask.new(:spec)`: a task of that name.
        let rest = match line.find("Task.new(") {
            Some(at) => &line[at + "Task.new(".len()..],
            None => match line.strip_prefix("task") {
                Some(rest) => rest,
                None => continue,
            },
        };
        let rest = rest.trim_start_matches(['(', ' ']);
        let name: String = rest
            .trim_start_matches(':')
            .trim_start_matches(['\'', '"'])
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '-'))
            .collect();
        let name = name.trim_end_matches(':').to_string();
        if !name.is_empty() && !tasks.contains(&name) {
            tasks.push(name);
        }
    }
    if tasks.is_empty() {
        return;
    }
    tasks.truncate(MAX_TASKS);
    let listed: Vec<String> = tasks.iter().map(|t| format!("`rake {t}`")).collect();
    push(
        found,
        "commands",
        format!("Rake tasks: {}.", listed.join(", ")),
        "Rakefile",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gemfiles_ruby_rubocop_rspec_and_rake_tasks() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let write = |name: &str, text: &str| {
            std::fs::write(dir.path().join(name), text).expect("written");
        };
        write(
            "Gemfile",
            "source 'https://rubygems.org'\nruby '3.3.0'\ngem 'rake'\n",
        );
        write(".rubocop.yml", "require:\n  - rubocop-packaging\nAllCops:\n  TargetRubyVersion: 2.7\n  DisabledByDefault: true\n");
        write(".rspec", "--require spec_helper\n");
        write(
            "Rakefile",
            "require 'rspec/core/rake_task'\nRSpec::Core::RakeTask.new(:spec)\ntask default: :spec\n",
        );
        let sources = Sources::new(dir.path());
        let mut found = Vec::new();
        detect(&sources, &mut found);
        let said: Vec<&str> = found.iter().map(|p| p.practice.as_str()).collect();
        assert_eq!(
            said,
            [
                "Ruby 3.3.0 (`Gemfile`).",
                "RuboCop checks the Ruby style (`.rubocop.yml`: target Ruby 2.7, only the cops it enables, with `rubocop-packaging`; `bundle exec rubocop`).",
                "`bundle exec rspec` runs the RSpec specs (`spec/**/*_spec.rb`).",
                "Rake tasks: `rake spec`, `rake default`.",
            ]
        );
    }
}
