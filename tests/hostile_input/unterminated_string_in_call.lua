on("turn", "x", function(g) g:log("abc
