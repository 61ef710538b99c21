"""The helpers every page uses, gathered under one name (``ui.x``): each lives in the module of its concern.

* :mod:`ui_text` — escaping and error plumbing (``esc``, ``call``, ``guarded``, ``guarded_callback``, ``show_notes``, ``caption``);
* :mod:`ui_cache` — cached calls into compare_lib (every statistic a page shows comes from there);
* :mod:`ui_widgets` — widgets and layout (``wide_chart``, ``fold_level_source``, ``classifier_pair``, ...);
* :mod:`ui_exports` — downloads of figures and tables.

No statistics are computed in the dashboard; every number comes from ``compare_lib``.
"""

from __future__ import annotations

from ui_cache import *  # noqa: F401,F403
from ui_cache import __all__ as _cache_names
from ui_exports import *  # noqa: F401,F403
from ui_exports import __all__ as _export_names
from ui_text import *  # noqa: F401,F403
from ui_text import __all__ as _text_names
from ui_widgets import *  # noqa: F401,F403
from ui_widgets import __all__ as _widget_names

__all__ = [*_text_names, *_cache_names, *_widget_names, *_export_names]
