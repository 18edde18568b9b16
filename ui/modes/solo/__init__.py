"""The solo screens: Learn, Puzzles, Solitaire, Four lines and loops, the booklet puzzles and the pyramids."""
