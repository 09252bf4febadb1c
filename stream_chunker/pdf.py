"""PDF in: a PDF's text read one page at a time and fed to a Chunker
(``pip install -e '.[pdf]'`` for the default backend). The code is in
``stream_chunker/drivers/pdf.py``, and ``chunk_pdf`` in ``stream_chunker/drivers/document.py``."""

from .drivers.document import chunk_pdf
from .drivers.pdf import BACKENDS, NOT_A_PDF, OCR_HINT, SIGNATURE, Page, check_pdf, is_pdf, pdf_batches, pdf_pages

__all__ = ["BACKENDS", "NOT_A_PDF", "OCR_HINT", "SIGNATURE", "Page", "check_pdf", "chunk_pdf", "is_pdf",
           "pdf_batches", "pdf_pages"]
