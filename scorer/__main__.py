"""``python -m scorer`` is the ``mjscore`` command."""

from .cli.entry import main

if __name__ == "__main__":
    main()
