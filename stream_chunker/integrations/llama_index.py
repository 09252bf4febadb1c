"""A LlamaIndex node parser (the ``[llama-index]`` extra).

:class:`StreamChunkerNodeParser` turns documents into one ``TextNode`` per
chunk. A node's text is the chunk's text; its metadata holds every other
field of the chunk (``id``, ``clause``, ``heading_path``, ``words``,
``tokens``, ``real_tokens``, ``citation``, ``lines``, ``pages``,
``oversize``) and ``source`` (the document's ``file_path`` or ``source``
metadata, or its id). Its node id is ``"{document id}:{chunk id}"``: chunk ids
are unique within a document only, so the document's id keeps them apart in
an index that holds many. Nodes of one document are linked previous/next.

LlamaIndex puts a node's metadata into the text it embeds and shows a
model; the chunk's cap was measured on its text alone, so only
``heading_path`` and ``clause`` go into the embedded text, and the model
also sees ``citation``, ``pages`` and ``source`` -- what it needs to cite.

>>> from llama_index.core import Document
>>> parser = StreamChunkerNodeParser(real_tokens=False)
>>> nodes = parser.get_nodes_from_documents([Document(text="1 Cover\\nWe cover the house.\\n", id_="policy")])
>>> nodes[0].node_id, nodes[0].text, nodes[0].metadata["pages"]
('policy:1', 'We cover the house.', [1, 1])
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from llama_index.core.bridge.pydantic import Field
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, MetadataMode, NodeRelationship, TextNode
from llama_index.core.utils import get_tqdm_iterable

from .frameworks import chunking, metadata, text_chunks

__all__ = ["StreamChunkerNodeParser"]

_NOT_EMBEDDED = ["id", "words", "tokens", "real_tokens", "citation", "lines", "pages", "oversize", "source"]
_NOT_SHOWN_TO_MODELS = ["id", "words", "tokens", "real_tokens", "lines", "oversize"]


class StreamChunkerNodeParser(NodeParser):
    """Documents into chunk nodes; keyword options are those of
    :func:`stream_chunker.chunk_lines`, beside ``NodeParser``'s own
    (``include_metadata``, ``include_prev_next_rel``, ``callback_manager``)."""

    chunker_options: Dict[str, Any] = Field(
        default_factory=dict, description="Options of stream_chunker.chunk_lines (profile, max_tokens, ...).")

    def __init__(self, **options: Any) -> None:
        own = {name: options.pop(name) for name in list(options) if name in NodeParser.model_fields}
        super().__init__(**{"chunker_options": options, **own})

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> List[BaseNode]:
        parsed: List[BaseNode] = []
        how = chunking(self.chunker_options)
        for node in get_tqdm_iterable(nodes, show_progress, "Chunking documents"):
            source = node.metadata.get("file_path", node.metadata.get("source", node.node_id))
            for chunk in text_chunks(node.get_content(metadata_mode=MetadataMode.NONE), how):
                parsed.append(TextNode(
                    id_=f"{node.node_id}:{chunk.id}",
                    text=chunk.text,
                    metadata=metadata(chunk, source),
                    excluded_embed_metadata_keys=list(_NOT_EMBEDDED),
                    excluded_llm_metadata_keys=list(_NOT_SHOWN_TO_MODELS),
                    # NodeParser links nodes with one source previous/next.
                    relationships={NodeRelationship.SOURCE: node.as_related_node_info()},
                ))
        return parsed
