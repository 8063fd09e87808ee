"""An orchestrator loop against a running Engram, in plain Python (standard library only):

    ENGRAM_URL=http://localhost:4000 [ENGRAM_API_KEY=egk_...] python3 examples/python/orchestrator.py

It starts a session in a project, asks `context` before each step, records what the "agent" did
as session events with state, writes back what it learnt, and completes the session.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ.get("ENGRAM_URL", "http://localhost:4000")
HEADERS = {"content-type": "application/json", "x-engram-actor": "agent:python-example"}
if os.environ.get("ENGRAM_API_KEY"):
    HEADERS["authorization"] = "Bearer " + os.environ["ENGRAM_API_KEY"]


class EngramError(Exception):
    """A GraphQL error, or an expected failure of a mutation (its `code`, as in extensions.code)."""


def ask(query, **variables):
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = urllib.request.Request(BASE + "/graphql", data=body, headers=HEADERS, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error)
    if answer.get("errors"):
        first = answer["errors"][0]
        raise EngramError(f"{first.get('extensions', {}).get('code')}: {first['message']}")
    return answer["data"]


def succeeded(result):
    """A mutation's result union: its success payload, or the error type raised."""
    if "code" in result:
        raise EngramError(f"{result['code']}: {result['message']}")
    return result


FAILURE = "... on UserError { code message }"

project = succeeded(ask(
    f"""mutation($name: String!) {{ createProject(input: {{ name: $name }}) {{
          ... on CreateProjectSuccess {{ project {{ id }} }} {FAILURE} }} }}""",
    name=f"python-example-{int(time.time() * 1000)}",
)["createProject"])["project"]["id"]

succeeded(ask(
    f"""mutation($scope: ID!) {{ addGuideline(input: {{ scope: $scope, name: "type-hints",
          content: "Annotate public functions with type hints", priority: 70 }}) {{ __typename {FAILURE} }} }}""",
    scope=project,
)["addGuideline"])

session = succeeded(ask(
    f"""mutation($project: ID!) {{ startSession(input: {{ project: $project, name: "python run", agentId: "python-example" }}) {{
          ... on StartSessionSuccess {{ session {{ id }} }} {FAILURE} }} }}""",
    project=project,
)["startSession"])["session"]["id"]

for step, task in enumerate(["add type hints to the parser", "document the parser"], start=1):
    context = ask(
        """query($scope: ID!, $task: String!) { context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {
              tokensUsed guidelines { score node { name } } } }""",
        scope=session, task=task,
    )["context"]
    advice = ", ".join(g["node"]["name"] for g in context["guidelines"]) or "none"
    print(f'task "{task}": {context["tokensUsed"]} tokens of context, guidelines: {advice}')
    succeeded(ask(
        f"""mutation($session: ID!, $content: JSON, $state: JSON) {{ appendSessionEvent(input: {{ session: $session,
              actor: "agent:python-example", type: ACTION, content: $content, stateDelta: $state }}) {{ __typename {FAILURE} }} }}""",
        session=session, content={"task": task, "followed": advice}, state={"session:step": step},
    )["appendSessionEvent"])

step = ask(
    """query($session: ID!) { scope(id: $session) { ... on Session { state(key: "step") { value } eventCount } } }""",
    session=session,
)["scope"]
succeeded(ask(
    f"""mutation($scope: ID!) {{ addKnowledge(input: {{ scope: $scope, title: "parser-docs",
          content: "The parser is documented in docs/parser.md" }}) {{ __typename {FAILURE} }} }}""",
    scope=project,
)["addKnowledge"])
status = succeeded(ask(
    f"""mutation($session: ID!) {{ completeSession(input: {{ id: $session }}) {{
          ... on CompleteSessionSuccess {{ transition {{ session {{ status }} }} }} {FAILURE} }} }}""",
    session=session,
)["completeSession"])["transition"]["session"]["status"]

print(f"session {status}; {step['eventCount']} events; state step = {step['state']['value']}")
if status != "COMPLETED" or step["state"]["value"] != 2:
    sys.exit(1)
