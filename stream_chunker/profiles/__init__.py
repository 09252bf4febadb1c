"""Profiles: each reads one kind of document.

``base`` says what a profile is and what every profile shares, and holds the
registry the engine and the command line read; ``labels`` is the model of
label sequences (what can come next) that both shipped profiles use;
``paragraphs`` reads body text as paragraphs. Each shipped profile is a
folder of its own -- ``policy`` (insurance wordings and their outlines),
``statute`` (code sections and their subsections) -- that imports nothing from
the other.
"""
