"""A real MCP client against `lexi mcp`: the official Python SDK (`pip install mcp`), as `.ci/run` runs it.

Builds a small fixture project in a temporary directory (a git repository with a Rust crate, then
`lexictl init --yes` and `lexictl update`), starts the server with the SDK's stdio client and
checks initialize, tools/list, resources, `lookup` (and the session cache's short answer), `search`
and a write tool (`stack_post`, found again by `stack_search`).

Usage: python tests/mcp/client.py target/debug   (the directory holding lexi and lexictl)
Prints one line per check and `N passed, 0 failed`; exits 1 on the first failure.
"""

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = {
    "orient", "lookup", "index", "context", "search", "conventions", "concepts", "stack_search",
    "stack_view", "stack_post", "stack_answer", "stack_vote", "iwh_read", "iwh_write", "impact", "convention_add",
}

passed = 0


def check(name, condition, detail=""):
    global passed
    if not condition:
        print(f"FAIL {name}: {detail}")
        print(f"{passed} passed, 1 failed")
        sys.exit(1)
    passed += 1
    print(f"ok   {name}")


def hermetic_env(home):
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_AUTHOR_NAME": "CI",
        "GIT_AUTHOR_EMAIL": "ci@example.com",
        "GIT_COMMITTER_NAME": "CI",
        "GIT_COMMITTER_EMAIL": "ci@example.com",
    }
    if "TMPDIR" in os.environ:
        env["TMPDIR"] = os.environ["TMPDIR"]
    return env


def fixture(root, bins, env):
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "calc"\nversion = "0.1.0"\n')
    (root / "src" / "lib.rs").write_text(
        "//! Evaluates arithmetic expressions.\n\npub mod parser;\n\npub fn eval(input: &str) -> i64 {\n    parser::parse(input)\n}\n"
    )
    (root / "src" / "parser.rs").write_text("/// Parses a number.\npub fn parse(input: &str) -> i64 {\n    input.trim().parse().unwrap_or(0)\n}\n")

    def run(*args):
        subprocess.run(args, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)

    run("git", "init", "-q", "-b", "main")
    run("git", "add", "-A")
    run("git", "commit", "-q", "-m", "initial")
    run(str(bins / "lexictl"), "init", "--yes", "--agents", "none")
    run(str(bins / "lexictl"), "update")


def text(result):
    return "".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def session_checks(root, bins, env):
    params = StdioServerParameters(command=str(bins / "lexi"), args=["mcp"], cwd=str(root), env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("initialize", init.server_info.name == "lexibrarian", init)

            tools = await session.list_tools()
            names = {tool.name for tool in tools.tools}
            check("tools/list", names == EXPECTED_TOOLS, sorted(names))
            lookup_tool = next(tool for tool in tools.tools if tool.name == "lookup")
            check("lookup schema", lookup_tool.input_schema.get("required") == ["file"], lookup_tool.input_schema)

            resources = await session.list_resources()
            check("resources/list", any(str(r.uri) == "lexibrary://START_HERE.md" for r in resources.resources), resources)

            first = await session.call_tool("lookup", {"file": "src/lib.rs"})
            body = text(first)
            check("lookup", not first.is_error and "# src/lib.rs" in body and "(etag " in body, body)
            # The design files (and the graph's cache, which ranks the tests) were written a moment
            # ago: make them old enough for the cache to vouch for.
            old = 1_000_000_000
            for path in [root / ".lexibrary" / "src" / "lib.rs.md", root / "src" / "lib.rs",
                         root / ".lexibrary" / ".aindex", root / ".lexibrary" / "src" / ".aindex",
                         root / ".lexibrary" / "config.yaml",
                         # The update cache, which lookup reads Calls from (in git or not).
                         root / ".git" / "lexibrarian" / "cache",
                         root / ".lexibrary" / ".cache" / "state" / "cache"]:
                if path.exists():
                    os.utime(path, (old, old))
            # Their stats changed, so this answer is in full once more; the next one is short.
            await session.call_tool("lookup", {"file": "src/lib.rs"})
            again = await session.call_tool("lookup", {"file": "src/lib.rs"})
            check("lookup again: unchanged", text(again).startswith("unchanged since "), text(again))
            full = await session.call_tool("lookup", {"file": "src/lib.rs", "full": True})
            check("lookup full: true", "# src/lib.rs" in text(full) and "## Interface Contract" in text(full), text(full))
            rules = await session.call_tool("conventions", {"dir": "."})
            check("conventions", not rules.is_error and "Local Conventions" in text(rules), text(rules))

            refused = await session.call_tool("lookup", {"file": "../../etc/passwd"})
            check("paths outside the project are refused", refused.is_error and "outside the project root" in text(refused), text(refused))

            impact = await session.call_tool("impact", {"file": "src/parser.rs"})
            check("impact", not impact.is_error and "src/lib.rs" in text(impact), text(impact))
            added = await session.call_tool("convention_add", {"dir": "src", "rule": "Parsing never panics."})
            check("convention_add", not added.is_error and "Parsing never panics." in text(added), text(added))

            search = await session.call_tool("search", {"query": "arithmetic"})
            check("search", not search.is_error and "src/lib.rs" in text(search), text(search))

            posted = await session.call_tool("stack_post", {
                "title": "Parser returns 0 for garbage",
                "problem": "parse() hides errors.",
                "evidence": "eval(\"x\") == 0",
                "files": ["src/parser.rs"],
                "tags": ["parser"],
                "author": "python-client",
            })
            check("stack_post", not posted.is_error and text(posted).startswith("Created ST-001"), text(posted))
            found = await session.call_tool("stack_search", {"query": "garbage"})
            check("stack_search finds the post", "ST-001" in text(found), text(found))
            as_json = await session.call_tool("stack_view", {"id": "ST-001", "format": "json"})
            check("stack_view json", as_json.structured_content and as_json.structured_content["frontmatter"]["author"] == "python-client", as_json)


def main():
    bins = Path(sys.argv[1] if len(sys.argv) > 1 else "target/debug").resolve()
    with tempfile.TemporaryDirectory(prefix="lexi-mcp-py-") as temp:
        temp = Path(temp)
        home = temp / "home"
        home.mkdir()
        env = hermetic_env(home)
        root = temp / "project"
        fixture(root, bins, env)
        asyncio.run(session_checks(root, bins, env))
        post = root / ".lexibrary" / "stack" / "ST-001-parser-returns-0-for-garbage.md"
        check("the post is on disk", post.exists(), sorted(p.name for p in (root / ".lexibrary" / "stack").iterdir()))
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
