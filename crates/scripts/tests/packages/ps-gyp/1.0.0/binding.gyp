{ "targets": [] }
