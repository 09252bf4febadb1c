"""The policy profile: a wording cut by the outline it prints (``profile``),
judged by the label families (``families``) and the rules (``rules``) of its
preset, placed by the stack rule (``placing``) among the levels it keeps open
(``state``), with the shapes of titles (``outline``) and what its contents list
vouches for (``contents``)."""
