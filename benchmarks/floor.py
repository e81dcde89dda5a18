"""The cold-start floor: a typer app with a ``score`` command that imports nothing else.

    python benchmarks/floor.py score 123m456p789s234sP9m --rules hangzhou --self-draw

It declares a few options as ``mjscore score`` does, parses the command line with typer,
and prints the hand back. What ``mjscore score`` costs above this is mjscore's own start-up
(its imports, loading the ruleset, scoring one hand); benchmarks/run.py reports the ratio.
"""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  pretty_exceptions_enable=False)


@app.command()
def score(hand: str, rules: str = typer.Option(..., "--rules"),
          self_draw: bool = typer.Option(False, "--self-draw"),
          discarder: str | None = typer.Option(None, "--from"),
          seat: str = typer.Option("E", "--seat"),
          round_: str = typer.Option("E", "--round"),
          wild: str | None = typer.Option(None, "--wild"),
          as_json: bool = typer.Option(False, "--json")) -> None:
    """Print the hand back."""
    print(hand, rules)


@app.command()
def rules() -> None:
    """A second command, so that typer builds a group as it does for mjscore."""


if __name__ == "__main__":
    app(prog_name="floor")
