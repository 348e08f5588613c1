"""The pages of docs/ made from the code (scripts/docs): current, and checked so that a page
that drifts from the code, or a citation of a section docs/api.md lacks, fails the run."""
import os
import re
import shutil
import subprocess
import tempfile

from harness import ROOT, test

DOCS = os.path.join(ROOT, "scripts", "docs")


def check(docs_dir=None):
    args = [DOCS, "--check"] + (["--docs-dir", docs_dir] if docs_dir else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def planted(change):
    """A copy of docs/ with `change(path_of_copy)` applied to it."""
    copy = tempfile.mkdtemp(prefix="fb-docs-")
    shutil.rmtree(copy)
    shutil.copytree(os.path.join(ROOT, "docs"), copy)
    change(copy)
    return copy


def edit(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert old in text, f"{old!r} is not in {path}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


@test
def the_generated_pages_match_the_code():
    result = check()
    assert result.returncode == 0, result.stderr[-3000:]


@test
def a_code_map_that_drifts_from_the_route_table_fails():
    copy = planted(lambda d: edit(os.path.join(d, "code-map.md"), "| DELETE | `/v1/tokens/{uuid}/` |",
                                  "| DELETE | `/v1/tokens/{uuid}/revoke/` |"))
    try:
        result = check(copy)
        assert result.returncode == 1, result
        assert "code-map.md is stale" in result.stderr and "/v1/tokens/{uuid}/revoke/" in result.stderr, result.stderr
        assert "configuration.md" not in result.stderr, result.stderr
    finally:
        shutil.rmtree(copy)


@test
def a_configuration_page_that_drifts_from_the_code_fails():
    # A default changed in the page alone, as when the code's default changes and nobody
    # regenerates the page.
    copy = planted(lambda d: edit(os.path.join(d, "configuration.md"), "| `GATEWAY_PORT` | `8080` |",
                                  "| `GATEWAY_PORT` | `8081` |"))
    try:
        result = check(copy)
        assert result.returncode == 1 and "configuration.md is stale" in result.stderr, result
    finally:
        shutil.rmtree(copy)


@test
def a_citation_of_a_missing_api_section_fails():
    with open(os.path.join(ROOT, "docs", "api.md"), encoding="utf-8") as f:
        assert re.search(r"^## Idempotency$", f.read(), re.M)
    copy = planted(lambda d: edit(os.path.join(d, "api.md"), "\n## Idempotency\n", "\n## Repeated requests\n"))
    try:
        result = check(copy)
        assert result.returncode == 1, result
        assert 'cites docs/api.md "Idempotency", which has no such heading' in result.stderr, result.stderr
    finally:
        shutil.rmtree(copy)


@test
def every_docs_page_is_linked_from_the_readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    pages = sorted(p for p in os.listdir(os.path.join(ROOT, "docs")) if p.endswith(".md"))
    assert len(pages) >= 7, pages
    missing = [p for p in pages if f"docs/{p}" not in readme]
    assert not missing, missing
    assert len(readme.splitlines()) <= 150, len(readme.splitlines())
