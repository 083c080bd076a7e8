"""The presentation layer: figures, players, widgets, pictures and the report, drawn from research output.

Nothing here computes a statistic: every number comes from :mod:`animre.research`
or the corpus tables, and every value is written by :func:`animre.base.display.fmt`
(tables on screen: :mod:`animre.base.tableview`).

- :mod:`animre.present.png`: pixels and figures as PNG at their native size;
- :mod:`animre.present.plots`: matplotlib figures, by kind of picture;
- :mod:`animre.present.players`: animations played frame by frame at the file's timing;
- :mod:`animre.present.widgets`: the corpus explorer, column profiler, reinterpret explorer,
  claims board and compare view;
- :mod:`animre.present.pictures`: what the pictures of every format share (each format's are in its folder);
- :mod:`animre.present.report`: one self-contained HTML report.

Examples
--------
>>> from animre.present import plots, players, widgets
>>> callable(plots.bar_values), callable(players.image_player), callable(widgets.corpus_explorer)
(True, True, True)
"""

# The subpackages are not imported here: ``animre report`` needs no ipywidgets, a plot no report.
