"""The skills the web console's tests register (tests/ui): ordinary ones to search and filter,
a private one for sign-in, and hostile ones whose fields and SKILL.md try to run script,
load things, restyle the page or smuggle javascript: links. Every payload would set
window.__skillnodePwned if it ever ran."""
import os

FLAG = "__skillnodePwned"
CAPABILITIES = ["ui-translate", "ui-summarize", "ui-search"]
TYPES = ["tool-skill", "reasoner"]
PUBLIC_COUNT = 60  # more than one page (50) of results
PRIVATE_ID = "ui-private-vault"
PRIVATE_CAPABILITY = "ui-vault"
LIVE_CAPABILITY = "ui-live"
HOSTILE_CAPABILITY = "ui-hostile"

# Short enough for the record's limits (names up to 64 characters, 960 encoded bytes).
HOSTILE_NAME = f"<img src=x onerror={FLAG}=1>"
HOSTILE_DESCRIPTION = f"<script>window.{FLAG}=1</script></style><style>*{{display:none}}</style>"
HOSTILE_TAGS = [f"\"><svg onload={FLAG}=1>", "javascript:alert(1)", "x{}*{color:red}"]
HOSTILE_ENDPOINT = "http://127.0.0.1:9/<script>x</script>"

HOSTILE_SKILL_MD = f"""---
name: ui-hostile-md
description: A SKILL.md that tries every trick <script>window.{FLAG}=1</script>
---
# Hostile <script>window.{FLAG}=1</script>

<script>window.{FLAG}=1</script>
<img src="x" onerror="window.{FLAG}=1">
<svg onload="window.{FLAG}=1"><circle r="1"/></svg>
<iframe src="javascript:window.{FLAG}=1"></iframe>
<a href="javascript:window.{FLAG}=1" id="hostile-js-link">a javascript: link</a>
<a href="  JaVaScRiPt:window.{FLAG}=1">a mixed-case javascript: link</a>
<a href="data:text/html,<script>window.{FLAG}=1</script>">a data: link</a>
<style>body {{ display: none !important; }}</style>
<div style="background:url(javascript:window.{FLAG}=1)">styled div</div>
<form action="javascript:window.{FLAG}=1"><button>press</button></form>
<object data="javascript:window.{FLAG}=1"></object>
<math><mi xlink:href="javascript:window.{FLAG}=1">m</mi></math>

[markdown javascript link](javascript:window.{FLAG}=1)
[markdown http link](https://example.com/safe)
![image](javascript:window.{FLAG}=1)

Literal text: `<script>window.{FLAG}=1</script>`
"""


def public_skill(i):
    """Skill i: capability CAPABILITIES[i % 3], type TYPES[i % 2], major version
    1 + (i // 3) % 3, 'alpha' in the description when i % 4 == 0 (ui_pages.mjs relies on it)."""
    return {"agentId": f"ui-agent-{i % 3}", "skillId": f"ui-skill-{i:03d}",
            "version": f"{1 + (i // 3) % 3}.{i % 5}.0", "skillType": TYPES[i % 2],
            "endpoint": f"http://127.0.0.1:9/skill/{i}",
            "capabilities": [CAPABILITIES[i % 3]], "scenes": ["ui-scene"],
            "descriptor": {"name": f"UI Skill {i:03d}",
                           "description": f"Test skill number {i} {'alpha' if i % 4 == 0 else 'beta'}",
                           "tags": ["ui-test"],
                           "inputSchema": {"type": "object", "required": ["text"],
                                           "properties": {"text": {"type": "string",
                                                                   "maxLength": 100}}}}}


def private_skill():
    return {"agentId": "ui-agent-private", "skillId": PRIVATE_ID, "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": "http://127.0.0.1:9/vault",
            "capabilities": [PRIVATE_CAPABILITY], "scenes": [],
            "descriptor": {"name": "Private Vault", "description": "only with a token",
                           "access": "private"}}


def live_skill():
    return {"agentId": "ui-agent-live", "skillId": "ui-live-skill", "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": "http://127.0.0.1:9/live",
            "capabilities": [LIVE_CAPABILITY], "scenes": [],
            "descriptor": {"name": "Live Arrival", "description": "registered with curl"}}


def hostile_skill():
    return {"agentId": "ui-agent-hostile", "skillId": "ui-hostile", "version": "6.6.6",
            "skillType": "tool-skill", "endpoint": HOSTILE_ENDPOINT,
            "capabilities": [HOSTILE_CAPABILITY], "scenes": [],
            "descriptor": {"name": HOSTILE_NAME, "description": HOSTILE_DESCRIPTION,
                           "tags": HOSTILE_TAGS}}


def write_hostile_folder(root):
    folder = os.path.join(root, "ui-hostile-md")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "SKILL.md"), "w", newline="") as f:
        f.write(HOSTILE_SKILL_MD)
    return folder


# The word search's skill (ui_search.mjs), registered with the node's peer and found from the
# node by words of its description, in other inflections than it is written in.
WORD_SKILL_ID = "ui-pdf-summary"
WORD_QUERY = "summarising pdfs"          # "Summarize" and "PDF" in the skill
WORD_QUERY_NONE = "xylophone quokka"     # words of no registered skill


def word_skill():
    return {"agentId": "ui-agent-words", "skillId": WORD_SKILL_ID, "version": "1.0.0",
            "skillType": "tool-skill", "endpoint": "http://127.0.0.1:9/pdf",
            "capabilities": ["ui-document-summary"], "scenes": ["ui-office"],
            "descriptor": {"name": "Summarize PDF",
                           "description": "Reads a PDF document and writes what it says as "
                                          "five short bullet points.",
                           "tags": ["pdf", "summary"]}}
