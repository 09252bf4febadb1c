"""The scanner, in the order text goes through it: ``splitter`` (pieces of
text into complete lines), ``zones`` (text held back until the page
furniture in it is judged, by the rules of ``furniture``), ``cutter`` (lines
into the reader's records). The stages use the core's records and nothing
above them.
"""
