"""The pages of docs/ made from the code (scripts/docs): current, and checked so that a page
that drifts from the code, or a citation of a section docs/api.md lacks, fails the run."""
import importlib.machinery
import os
import shutil
import subprocess
import tempfile
import types

from harness import ROOT, test

DOCS = os.path.join(ROOT, "scripts", "docs")


def check(docs_dir=None):
    args = [DOCS, "--check"] + (["--docs-dir", docs_dir] if docs_dir else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def check_with(page, old, new):
    """scripts/docs --check on a copy of docs/ whose `page` has `old` replaced by `new`."""
    copy = tempfile.mkdtemp(prefix="fb-docs-")
    shutil.rmtree(copy)
    shutil.copytree(os.path.join(ROOT, "docs"), copy)
    try:
        path = os.path.join(copy, page)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        assert old in text, f"{old!r} is not in {page}"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))
        return check(copy)
    finally:
        shutil.rmtree(copy)


@test
def the_generated_pages_match_the_code():
    result = check()
    assert result.returncode == 0, result.stderr[-3000:]


@test
def a_code_map_that_drifts_from_the_route_table_fails():
    result = check_with("code-map.md", "| DELETE | `/v1/tokens/{uuid}/` |", "| DELETE | `/v1/tokens/{uuid}/revoke/` |")
    assert result.returncode == 1, result
    assert "code-map.md is stale" in result.stderr and "/v1/tokens/{uuid}/revoke/" in result.stderr, result.stderr
    assert "configuration.md" not in result.stderr, result.stderr


@test
def a_configuration_page_that_drifts_from_the_code_fails():
    # A default changed in the page alone, as when the code's default changes and nobody
    # regenerates the page.
    result = check_with("configuration.md", "| `GATEWAY_PORT` | `8080` |", "| `GATEWAY_PORT` | `8081` |")
    assert result.returncode == 1 and "configuration.md is stale" in result.stderr, result


@test
def a_citation_of_a_missing_api_section_fails():
    result = check_with("api.md", "\n## Idempotency\n", "\n## Repeated requests\n")
    assert result.returncode == 1, result
    assert 'cites docs/api.md "Idempotency", which has no such heading' in result.stderr, result.stderr


@test
def every_docs_page_is_linked_from_the_readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    pages = sorted(p for p in os.listdir(os.path.join(ROOT, "docs")) if p.endswith(".md"))
    assert len(pages) >= 7, pages
    missing = [p for p in pages if f"docs/{p}" not in readme]
    assert not missing, missing
    assert len(readme.splitlines()) <= 150, len(readme.splitlines())


def docs_script():
    """scripts/docs as a module, to call its checks on text planted here."""
    loader = importlib.machinery.SourceFileLoader("docs_script", DOCS)
    module = types.ModuleType(loader.name)
    module.__file__ = DOCS
    loader.exec_module(module)
    return module


@test
def citations_of_documents_outside_the_repository_are_found_however_they_wrap():
    script = docs_script()
    headings = {"Media", "Errors"}
    # Put together here, so that this file cites nothing itself.
    api, contract, spec, shared = "docs/" + "api.md", "CONTRACT" + ".md", "SPEC" + ".md", "../" + "shared/"
    cited = [
        ("a.cc", f"// The rules (API-{contract} section 2).\n"),
        ("b.cc", f"// The live socket (GET /i/{{slug}}/live/, API-\n// {contract} section 10): relayed\n"),
        ("c.py", f'"""As {spec} says."""\n'),
        ("d.h", f"// See {shared}ARCHITECTURE.md.\n"),
        ("e.cc", f'  // Sizes ({api}\n  // "Limits").\n'),
        ("f.cc", f'// Errors ({api} "Errors and\n// codes").\n'),
    ]
    for path, text in cited:
        assert script.citation_problems_in(path, text, headings), (path, text)
    fine = [
        ("g.cc", f'// The body of an error ({api} "Errors").\n'),
        ("h.cc", f'  // Uploads ({api}\n  // "Media") are streamed.\n'),
        ("scripts/test", f"conformance=$root/{shared}conformance/run.py\n"),
    ]
    for path, text in fine:
        assert not script.citation_problems_in(path, text, headings), (path, text)


@test
def routes_whose_declared_rpcs_disagree_with_their_handlers_fail():
    script = docs_script()
    sources = script.Sources([p for p in script.tracked_files()
                              if p.startswith(("services/", "common/")) and p.endswith(".cc")])
    rpcs = script.proto_rpcs()

    def problems_with(change):
        routes = script.run_binary("gateway", "--routes")
        change({(r["method"], r["pattern"]): r for r in routes})
        found = []
        script.code_map(routes, rpcs, sources, found)
        return found

    assert problems_with(lambda routes: None) == []
    # A call the handler makes that its route does not declare.
    found = problems_with(lambda routes: routes[("GET", "/v1/tokens/")]["rpcs"].clear())
    assert any("declares no RPC" in p for p in found), found
    assert any("tokens_routes.cc calls ListTokens, which none of its routes declares" in p for p in found), found
    # A declared call that no proto has, and one the handler never makes.
    found = problems_with(lambda routes: routes[("DELETE", "/v1/links/{uuid}/")]["rpcs"].append(
        "LinksService/DropLink"))
    assert any("declares LinksService/DropLink, which no proto has" in p for p in found), found
    found = problems_with(lambda routes: routes[("POST", "/v1/tokens/")]["rpcs"].append(
        "WebhooksService/Redeliver"))
    assert any("declares WebhooksService/Redeliver, but" in p for p in found), found
