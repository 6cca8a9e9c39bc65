module cacao

go 1.26.8
