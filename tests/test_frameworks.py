"""The LangChain and LlamaIndex adapters (issue 15), with the real packages.

The loader is lazy (its first ``Document`` comes before the input is read to
the end), a chunk's metadata turns back into the chunk, and the splitter and
the node parser give, over the corpus, the texts and ids of ``chunk_lines``.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import fields
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_chunker import Chunk, chunk_lines

pytest.importorskip("langchain_core", reason="the LangChain adapter needs langchain-core: pip install -e '.[langchain]'")
pytest.importorskip("llama_index.core",
                    reason="the LlamaIndex adapter needs llama-index-core: pip install -e '.[llama-index]'")

from langchain_core.documents import Document  # noqa: E402
from llama_index.core import Document as LlamaDocument  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeRelationship  # noqa: E402

from benchmarks.synthetic import generate  # noqa: E402
from stream_chunker.langchain import StreamChunkerLoader, StreamChunkerSplitter  # noqa: E402
from stream_chunker.llama_index import StreamChunkerNodeParser  # noqa: E402

FAST = {"real_tokens": False}
CHUNK_FIELDS = [f.name for f in fields(Chunk) if f.name != "text"]
#: Corpus texts and the options they are chunked with.
CORPUS_TEXTS: Dict[str, Dict[str, str]] = {
    "rfc2616.txt": {},
    "uslm-user-guide.txt": {},
    "insurance/sfip-dwelling-2021.txt": {},
    "dc-code-31-24.txt": {"profile": "statute", "code": "DC", "cite": "D.C. Code \u00a7 {section}"},
    "usc-title27.txt": {"profile": "statute", "code": "USC", "cite": "27 U.S.C. \u00a7 {section}"},
}


def as_chunk(text: str, metadata: dict) -> Chunk:
    """The chunk a ``Document`` or node was made from, back from its metadata."""
    values = {name: metadata[name] for name in CHUNK_FIELDS}
    return Chunk(text=text, **{**values, "lines": tuple(values["lines"]), "pages": tuple(values["pages"])})


# -- the loader ----------------------------------------------------------------

def test_the_loader_is_lazy_over_lines():
    lines = generate(pages=340).split("\n")
    taken: List[int] = []

    def recorded() -> Iterator[str]:
        for number, line in enumerate(lines):
            taken.append(number)
            yield line

    documents = StreamChunkerLoader(recorded(), source="manual", **FAST).lazy_load()
    first = next(documents)
    assert first.metadata["id"] == "front"
    assert len(taken) < len(lines) / 4  # the first chunk came long before the last line was read
    rest = list(documents)
    assert len(taken) == len(lines)
    assert [as_chunk(d.page_content, d.metadata) for d in [first, *rest]] == list(chunk_lines(lines, **FAST))


def _position(path: Path) -> Optional[int]:
    """Where this process's open descriptor of ``path`` is, from /proc (Linux)."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == str(path):
                info = Path(f"/proc/self/fdinfo/{fd}").read_text()
                return int(next(line.split()[1] for line in info.splitlines() if line.startswith("pos:")))
        except OSError:  # the descriptor listing itself, closed since
            continue
    return None


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="reads file positions from /proc (Linux)")
def test_the_loader_is_lazy_over_a_file(tmp_path):
    path = tmp_path / "manual.txt"
    path.write_text(generate(pages=340), encoding="utf-8")
    documents = StreamChunkerLoader(path, **FAST).lazy_load()
    first = next(documents)
    position = _position(path)
    assert position is not None and position < path.stat().st_size / 4
    assert first.metadata["source"] == str(path) and first.id == f"{path}:front"
    documents.close()


def test_the_loader_reads_a_pdf(tmp_path):
    pytest.importorskip("pypdfium2", reason="reading a PDF needs pypdfium2: pip install -e '.[pdf]'")
    pytest.importorskip("fpdf", reason="fpdf2 makes the test PDF: pip install -e '.[test]'")
    from benchmarks.pdf import write_pdf

    path = tmp_path / "manual.pdf"
    text = write_pdf(path, pages=20)
    documents = StreamChunkerLoader(str(path), **FAST).load()
    assert [as_chunk(d.page_content, d.metadata) for d in documents] == list(chunk_lines(io.StringIO(text), **FAST))
    assert {d.metadata["source"] for d in documents} == {str(path)}
    assert documents[-1].metadata["pages"] == [20, 20]


def test_metadata_round_trips_and_ids_carry_the_source():
    lines = generate(pages=12, seed=5).split("\n")
    documents = StreamChunkerLoader(lines, source="manual.txt", **FAST).load()
    chunks = list(chunk_lines(lines, **FAST))
    assert [as_chunk(d.page_content, d.metadata) for d in documents] == chunks
    assert [d.id for d in documents] == [f"manual.txt:{c.id}" for c in chunks]
    assert all(set(d.metadata) == {*CHUNK_FIELDS, "source"} and d.metadata["source"] == "manual.txt"
               for d in documents)


# -- the splitter and the node parser over the corpus ---------------------------

@pytest.fixture(params=sorted(CORPUS_TEXTS))
def corpus_text(request: pytest.FixtureRequest, corpus) -> tuple:
    name = request.param
    lines = corpus(name)
    return name, "\n".join(lines), CORPUS_TEXTS[name], list(chunk_lines(lines, **FAST, **CORPUS_TEXTS[name]))


def test_the_splitter_gives_the_chunks_of_chunk_lines(corpus_text):
    name, text, options, chunks = corpus_text
    splitter = StreamChunkerSplitter(**FAST, **options)
    given = [Document(page_content=text, metadata={"source": name, "kept": "yes"})]
    documents = splitter.split_documents(given)
    assert [(d.page_content, d.metadata["id"]) for d in documents] == [(c.text, c.id) for c in chunks]
    assert [as_chunk(d.page_content, d.metadata) for d in documents] == chunks
    assert all(d.metadata["kept"] == "yes" and d.metadata["source"] == name for d in documents)
    assert splitter.transform_documents(given) == documents


def test_the_node_parser_gives_the_chunks_of_chunk_lines(corpus_text):
    name, text, options, chunks = corpus_text
    document = LlamaDocument(text=text, id_=name)
    nodes = StreamChunkerNodeParser(**FAST, **options).get_nodes_from_documents([document])
    assert [(n.text, n.metadata["id"]) for n in nodes] == [(c.text, c.id) for c in chunks]
    assert [as_chunk(n.text, n.metadata) for n in nodes] == chunks
    assert [n.node_id for n in nodes] == [f"{name}:{c.id}" for c in chunks]
    assert all(n.metadata["source"] == name and n.ref_doc_id == name for n in nodes)


def test_nodes_are_linked_within_their_document_only():
    first = LlamaDocument(text=generate(pages=8, seed=1), id_="first")
    second = LlamaDocument(text=generate(pages=8, seed=1), id_="second")  # the same chunk ids again
    nodes = StreamChunkerNodeParser(**FAST).get_nodes_from_documents([first, second])
    assert len({n.node_id for n in nodes}) == len(nodes)
    for document in ("first", "second"):
        mine = [n for n in nodes if n.ref_doc_id == document]
        assert len(mine) > 2
        assert NodeRelationship.PREVIOUS not in mine[0].relationships
        assert NodeRelationship.NEXT not in mine[-1].relationships
        for before, after in zip(mine, mine[1:]):
            assert before.next_node.node_id == after.node_id and after.prev_node.node_id == before.node_id


def test_a_node_embeds_its_heading_path_not_its_bookkeeping():
    node = StreamChunkerNodeParser(**FAST).get_nodes_from_documents(
        [LlamaDocument(text="4 Exclusions\n4.1 Wear and tear\nWe do not cover gradual deterioration.\n")])[0]
    embedded = node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "heading_path: Exclusions > Wear and tear" in embedded and "clause: 4.1" in embedded
    assert not any(f"{key}:" in embedded for key in ("real_tokens", "lines", "words", "source"))
    shown = node.get_content(metadata_mode=MetadataMode.LLM)
    assert "pages: [1, 1]" in shown and "clause: 4.1" in shown and "real_tokens" not in shown


def test_options_of_the_node_parser_and_of_the_chunker_go_each_their_way():
    parser = StreamChunkerNodeParser(max_tokens=50, include_prev_next_rel=False, **FAST)
    assert parser.chunker_options == {"max_tokens": 50, "real_tokens": False}
    assert parser.include_prev_next_rel is False


@given(st.text(alphabet="12.3 aAbB()\n\f\r-", max_size=300))
def test_the_splitter_reads_a_text_as_its_lines(text):
    """Lines end at "\\n", "\\r\\n" or a lone "\\r": a form feed turns the page, inside a line."""
    documents = StreamChunkerSplitter(**FAST).split_documents([Document(page_content=text)])
    chunks = list(chunk_lines(re.split(r"\r\n|\r|\n", text), **FAST))
    assert [as_chunk(d.page_content, d.metadata) for d in documents] == chunks
    assert [d.id for d in documents] == [f"#1:{c.id}" for c in chunks]  # no source: its place in the input
