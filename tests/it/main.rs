//! Integration tests: the real binaries against real projects (git repositories in temp dirs).
//! One test binary, one module per command or concern, like jj's `tests/runner.rs`; every test
//! builds its project and runs its commands through the harness in `support.rs`.

mod fake_llm;
mod support;

mod test_agents;
mod test_bad_input;
mod test_calls;
mod test_ci;
mod test_cli;
mod test_content;
mod test_contract;
mod test_coverage;
mod test_externals;
mod test_formats;
mod test_full_graph;
mod test_git_operations;
mod test_graph;
mod test_hardening;
mod test_harness;
mod test_hooks;
mod test_index;
mod test_inherited;
mod test_init;
mod test_knowledge;
mod test_llm;
mod test_lookup;
mod test_lookup_answers;
mod test_lookup_member;
mod test_man;
mod test_mcp;
mod test_member_answers;
mod test_member_reach;
mod test_model_answers;
mod test_navigation;
mod test_notes_sync;
mod test_orient;
mod test_partial_states;
mod test_practices;
mod test_push;
mod test_readme;
mod test_review;
mod test_safety;
mod test_search_members;
mod test_secrets;
mod test_sha256;
mod test_sparse;
mod test_stack;
mod test_sweep;
mod test_team;
mod test_trust;
mod test_uninstall;
mod test_untrusted_output;
mod test_update;
mod test_validate;
mod test_views;
