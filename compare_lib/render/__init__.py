"""What people read: plotly figures, the static CD diagram, report sentences, paper tables, documents,
references and reproducing scripts. Every function here takes results and returns text, bytes or figures.

Layer 6: imports ``analyses`` and every layer below it; nothing imports it but the top (the public faces
``compare_lib.plots`` and ``compare_lib.report``, ``cli`` and ``_analysis``).
"""
