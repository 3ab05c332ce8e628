from trvendetta.bench.run import main

raise SystemExit(main())
