module kriegbot

go 1.26
