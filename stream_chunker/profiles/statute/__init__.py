"""The statute profile: code sections cut into subsections by their labels
(``profile``), with the shapes of a code's section lines, divisions and notes
(``codes``)."""
