"""The strategy game of Tantrix: its rules and state (:mod:`.game`), records (:mod:`.record`), robots
(:mod:`.robots`), matches between robots (:mod:`.match`), random playouts (:mod:`.playout`), the
external-robot protocol (:mod:`.protocol`) and its command line (:mod:`.cli`)."""
