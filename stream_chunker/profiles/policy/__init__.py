"""The policy profile: a wording cut by the outline it prints (``profile``),
with the shapes of its outline labels and titles (``outline``) and what its
contents list vouches for (``contents``)."""
